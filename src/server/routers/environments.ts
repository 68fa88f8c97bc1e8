import type Router from '@koa/router';
import { z } from 'zod';
import { newId } from '../../protocol/ids';
import { EnvironmentRecordSchema, type EnvironmentRecord } from '../../registry/records';
import { addRoute, apiRouter } from '../http/routeSpec';
import { checkRootOnHost } from '../roots/registerRoot';
import { addRootRoutes } from '../roots/rootRoutes';
import type { AppDeps } from './appDeps';

export const CreateEnvironmentBodySchema = z.strictObject({ hostId: z.string().min(1), path: z.string().min(1) });

/** `POST /environments`, `GET /environments/:id`, `GET /environments/:id/paths`. */
export function environmentsRouter(deps: AppDeps): Router {
  const router = apiRouter(deps.config);

  addRoute(
    router,
    {
      method: 'post',
      path: '/environments',
      summary: 'Register a folder of a host as an environment',
      tag: 'environments',
      body: CreateEnvironmentBodySchema,
      responses: { 201: { description: 'The environment', schema: EnvironmentRecordSchema } },
    },
    async (ctx, { body }) => {
      const folder = await checkRootOnHost(deps.hosts, body.hostId, body.path);
      const environment: EnvironmentRecord = { id: newId('env'), hostId: body.hostId, path: folder, createdAt: new Date().toISOString() };
      await deps.registry.environments.insert(environment);
      ctx.status = 201;
      ctx.set('Location', `/api/v1/environments/${environment.id}`);
      ctx.body = environment;
    },
  );

  addRootRoutes(router, deps.hosts, {
    what: 'environment',
    collection: deps.registry.environments,
    schema: EnvironmentRecordSchema,
    placeOf: (environment) => environment,
    pathsSummary: 'Fuzzy path search in the environment folder',
  });

  return router;
}
