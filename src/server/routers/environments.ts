import Router from '@koa/router';
import { z } from 'zod';
import { newId } from '../../protocol/ids';
import type { EnvironmentRecord } from '../../registry/records';
import type { AppDeps } from './appDeps';
import { mustGet } from '../http/lookups';
import { parseInput } from '../http/parseInput';
import { PathsQuerySchema } from './pathsQuery';
import { readJsonBody } from '../http/readJsonBody';
import { checkRootOnHost } from './registerRoot';
import { addRoute } from './routeSpec';
import { EnvironmentRecordSchema } from '../../registry/records';
import { ListPathsResultSchema } from '../../protocol/hostFiles';

export const CreateEnvironmentBodySchema = z.strictObject({ hostId: z.string().min(1), path: z.string().min(1) });

/** `POST /environments`, `GET /environments/:id`, `GET /environments/:id/paths`. */
export function environmentsRouter(deps: AppDeps): Router {
  const router = new Router();

  const tag = 'environments';
  addRoute(
    router,
    {
      method: 'post',
      path: '/environments',
      summary: 'Register a folder of a host as an environment',
      tag,
      body: CreateEnvironmentBodySchema,
      responses: { 201: { description: 'The environment', schema: EnvironmentRecordSchema } },
    },
    async (ctx) => {
      const body = parseInput(CreateEnvironmentBodySchema, await readJsonBody(ctx, deps.config.maxBodyBytes), 'body');
      const folder = await checkRootOnHost(deps.hosts, body.hostId, body.path);
      const environment: EnvironmentRecord = { id: newId('env'), hostId: body.hostId, path: folder, createdAt: new Date().toISOString() };
      await deps.registry.environments.insert(environment);
      ctx.status = 201;
      ctx.set('Location', `/api/v1/environments/${environment.id}`);
      ctx.body = environment;
    },
  );

  addRoute(
    router,
    {
      method: 'get',
      path: '/environments/:id',
      summary: 'One environment',
      tag,
      responses: { 200: { description: 'The environment', schema: EnvironmentRecordSchema } },
    },
    async (ctx) => {
      ctx.body = await mustGet(deps.registry.environments, ctx.params.id!, 'environment');
    },
  );

  addRoute(
    router,
    {
      method: 'get',
      path: '/environments/:id/paths',
      summary: 'Fuzzy path search in the environment folder',
      tag,
      query: PathsQuerySchema,
      responses: { 200: { description: 'Ranked paths with matched positions', schema: ListPathsResultSchema } },
    },
    async (ctx) => {
      const query = parseInput(PathsQuerySchema, ctx.query, 'query');
      const environment = await mustGet(deps.registry.environments, ctx.params.id!, 'environment');
      ctx.body = await deps.hosts.call(environment.hostId, 'host.list_paths', { ...query, path: environment.path });
    },
  );

  return router;
}
