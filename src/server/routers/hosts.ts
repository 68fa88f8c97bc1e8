import type Router from '@koa/router';
import { z } from 'zod';
import type { AppDeps } from './appDeps';
import { notFound } from '../http/problem';
import { IdParamsSchema } from '../http/idParams';
import { addRoute, apiRouter } from '../http/routeSpec';
import { refuseLongPath } from '../roots/rootGuard';
import { HostRecordSchema } from '../../registry/records';
import { BrowseDirectoryResultSchema } from '../../protocol/hostFiles';
import { ListModelsResultSchema } from '../../protocol/hostModelCommands';

export const HostViewSchema = HostRecordSchema.extend({ online: z.boolean() });

export const ModelsQuerySchema = z.strictObject({ provider: z.string().min(1).optional() });
/** The folder picker starts at the host's root unless told where; the host checks the path is absolute. */
export const DirectoriesQuerySchema = z.strictObject({ path: z.string().min(1).default('/') });

/**
 * `GET /hosts`, `GET /hosts/:id`: every host that ever said hello, with `online` and `lastSeenAt`.
 * `GET /hosts/:id/models`: the models its agents can run (the page's model picker).
 * `GET /hosts/:id/directories`: one level of a folder, for picking a project's folder.
 */
export function hostsRouter(deps: Pick<AppDeps, 'hosts'>): Router {
  const router = apiRouter();
  const tag = 'hosts';
  addRoute(
    router,
    {
      method: 'get',
      path: '/hosts',
      summary: 'Every host that ever said hello',
      tag,
      responses: { 200: { description: 'Hosts', schema: z.array(HostViewSchema) } },
    },
    async (ctx) => {
      ctx.body = await deps.hosts.list();
    },
  );
  addRoute(
    router,
    {
      method: 'get',
      path: '/hosts/:id',
      summary: 'One host',
      tag,
      params: IdParamsSchema,
      responses: { 200: { description: 'The host', schema: HostViewSchema } },
    },
    async (ctx, { params }) => {
      const host = await deps.hosts.get(params.id);
      if (!host) throw notFound('host', params.id);
      ctx.body = host;
    },
  );
  addRoute(
    router,
    {
      method: 'get',
      path: '/hosts/:id/models',
      summary: 'The models the host’s agents can run',
      tag,
      params: IdParamsSchema,
      query: ModelsQuerySchema,
      responses: { 200: { description: 'Models, and agents whose catalog could not be read', schema: ListModelsResultSchema } },
    },
    async (ctx, { params, query }) => {
      ctx.body = await deps.hosts.call(params.id, 'host.list_models', query);
    },
  );
  addRoute(
    router,
    {
      method: 'get',
      path: '/hosts/:id/directories',
      summary: 'One level of a folder on the host (folder picker)',
      tag,
      params: IdParamsSchema,
      query: DirectoriesQuerySchema,
      responses: { 200: { description: 'The folder’s entries', schema: BrowseDirectoryResultSchema } },
    },
    async (ctx, { params, query }) => {
      refuseLongPath(query.path);
      ctx.body = await deps.hosts.call(params.id, 'host.browse_directory', { path: query.path });
    },
  );
  return router;
}
