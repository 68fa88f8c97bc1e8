import Router from '@koa/router';
import { z } from 'zod';
import type { AppDeps } from './appDeps';
import { parseInput } from '../http/parseInput';
import { notFound } from '../http/problem';
import { refuseLongPath } from './rootGuard';

export const ModelsQuerySchema = z.strictObject({ provider: z.string().min(1).optional() });
/** The folder picker starts at the host's root unless told where; the host checks the path is absolute. */
export const DirectoriesQuerySchema = z.strictObject({ path: z.string().min(1).default('/') });

/**
 * `GET /hosts`, `GET /hosts/:id`: every host that ever said hello, with `online` and `lastSeenAt`.
 * `GET /hosts/:id/models`: the models its agents can run (the page's model picker).
 * `GET /hosts/:id/directories`: one level of a folder, for picking a project's folder.
 */
export function hostsRouter(deps: Pick<AppDeps, 'hosts'>): Router {
  const router = new Router();
  router.get('/hosts', async (ctx) => {
    ctx.body = await deps.hosts.list();
  });
  router.get('/hosts/:id', async (ctx) => {
    const host = await deps.hosts.get(ctx.params.id!);
    if (!host) throw notFound('host', ctx.params.id!);
    ctx.body = host;
  });
  router.get('/hosts/:id/models', async (ctx) => {
    const query = parseInput(ModelsQuerySchema, ctx.query, 'query');
    ctx.body = await deps.hosts.call(ctx.params.id!, 'host.list_models', query);
  });
  router.get('/hosts/:id/directories', async (ctx) => {
    const query = parseInput(DirectoriesQuerySchema, ctx.query, 'query');
    refuseLongPath(query.path);
    ctx.body = await deps.hosts.call(ctx.params.id!, 'host.browse_directory', { path: query.path });
  });
  return router;
}
