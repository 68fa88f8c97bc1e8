import Router from '@koa/router';
import type { AppDeps } from './appDeps';
import { notFound } from '../http/problem';

/** `GET /hosts`, `GET /hosts/:id`: every host that ever said hello, with `online` and `lastSeenAt`. */
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
  return router;
}
