import type Router from '@koa/router';
import { z } from 'zod';
import type { AppDeps } from './appDeps';
import { notFound } from '../http/problem';
import { addRoute, apiRouter } from '../http/routeSpec';
import { guardPathInRoots } from '../roots/rootGuard';
import { ReadFileResultSchema } from '../../protocol/hostFiles';

/** Spec leaves the body open (part 4); ours names the host and the absolute path on it. */
export const ReadFileBodySchema = z.strictObject({ hostId: z.string().min(1), path: z.string().min(1) });

/** `POST /files/read` → spec 2.8, only inside registered roots (see roots/rootGuard). */
export function filesRouter(deps: AppDeps): Router {
  const router = apiRouter(deps.config);
  addRoute(
    router,
    {
      method: 'post',
      path: '/files/read',
      summary: 'Read a file inside a registered project or environment folder',
      tag: 'files',
      body: ReadFileBodySchema,
      responses: { 200: { description: 'The file’s content', schema: ReadFileResultSchema } },
    },
    async (ctx, { body }) => {
      if (!(await deps.hosts.get(body.hostId))) throw notFound('host', body.hostId);
      const inRoot = await guardPathInRoots(deps, body.hostId, body.path);
      ctx.body = await deps.hosts.call(body.hostId, 'host.read_file', inRoot);
    },
  );
  return router;
}
