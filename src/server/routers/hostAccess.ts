import type Router from '@koa/router';
import { EnrollBodySchema, EnrolledSchema, EnrollmentSchema } from '../../protocol/hostEnrollment';
import { IdParamsSchema } from '../http/idParams';
import { addRoute, apiRouter } from '../http/routeSpec';
import { removeHost } from '../hostAccess/removeHost';
import type { AppDeps } from './appDeps';

/**
 * Who may attach as a host (issue 30, docs/hosts.md#enrolling-a-host): `POST /hosts/enrollments` makes a
 * one-time code; `POST /hosts/enroll` (public: the code is the key) trades it for the daemon's own
 * credential; `DELETE /hosts/:id` removes a host, its credential and its link. Secrets are in the answer
 * once and never in a log.
 */
export function hostAccessRouter(deps: Pick<AppDeps, 'config' | 'registry' | 'hostAccess' | 'revocations' | 'log'>): Router {
  const router = apiRouter(deps.config);
  const tag = 'hosts';
  addRoute(
    router,
    {
      method: 'post',
      path: '/hosts/enrollments',
      summary: 'Make a one-time enrollment code for a new host (npm run daemon -- --enroll CODE)',
      tag,
      responses: { 201: { description: 'The code, shown this once, and when it expires', schema: EnrollmentSchema } },
    },
    async (ctx) => {
      const enrollment = await deps.hostAccess.issueEnrollment();
      deps.log(`enrollment code made, expires ${new Date(enrollment.expiresAt).toISOString()}`);
      ctx.set('Cache-Control', 'no-store');
      ctx.status = 201;
      ctx.body = enrollment;
    },
  );
  addRoute(
    router,
    {
      method: 'post',
      path: '/hosts/enroll',
      summary: 'Trade an enrollment code for the host’s own credential (the daemon calls this)',
      tag,
      public: true,
      body: EnrollBodySchema,
      responses: { 201: { description: 'The host credential, shown this once', schema: EnrolledSchema } },
    },
    async (ctx, { body }) => {
      const credential = await deps.hostAccess.enroll(body.code, body.hostId);
      deps.log(`host ${body.hostId} enrolled from ${ctx.ip}`);
      ctx.set('Cache-Control', 'no-store');
      ctx.status = 201;
      ctx.body = { hostId: body.hostId, credential };
    },
  );
  addRoute(
    router,
    {
      method: 'delete',
      path: '/hosts/:id',
      summary: 'Remove a host: its credential, its record, and its link (closed with 4006)',
      tag,
      params: IdParamsSchema,
      responses: { 204: { description: 'Removed; it attaches again only after a new enrollment' } },
    },
    async (ctx, { params }) => {
      await removeHost({ registry: deps.registry, access: deps.hostAccess, revocations: deps.revocations, log: deps.log }, params.id);
      ctx.status = 204;
    },
  );
  return router;
}
