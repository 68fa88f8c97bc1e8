import type Router from '@koa/router';
import { z } from 'zod';
import { RevertTurnResultSchema, UnrevertResultSchema } from '../../protocol/hostRewindCommands';
import { IdParamsSchema } from '../http/idParams';
import { mustGet } from '../http/lookups';
import { addRoute, apiRouter } from '../http/routeSpec';
import { revertThread, unrevertThread } from '../rewind/rewindThread';
import type { AppDeps } from './appDeps';

const RevertBodySchema = z.strictObject({ turnId: z.string().min(1) });

/** Rewind of a thread (issue 39, docs/rewind.md): its files back to a turn's start, and that undone. */
export function rewindRouter(deps: AppDeps): Router {
  const router = apiRouter(deps.config);
  const tag = 'rewind';
  const threadOf = (id: string) => mustGet(deps.registry.threads, id, 'thread');

  addRoute(
    router,
    {
      method: 'post',
      path: '/threads/:id/revert',
      summary: 'Put the thread’s files back as they were at the start of a turn (the state before is kept for unrevert)',
      tag,
      params: IdParamsSchema,
      body: RevertBodySchema,
      responses: {
        200: { description: 'Reverted: the stored state’s ref and the turns undone', schema: RevertTurnResultSchema },
      },
    },
    async (ctx, { params, body }) => {
      ctx.body = await revertThread(deps, await threadOf(params.id), body.turnId);
    },
  );

  addRoute(
    router,
    {
      method: 'post',
      path: '/threads/:id/unrevert',
      summary: 'Undo the thread’s newest revert: its files as they were before it',
      tag,
      params: IdParamsSchema,
      responses: { 200: { description: 'Unreverted', schema: UnrevertResultSchema } },
    },
    async (ctx, { params }) => {
      ctx.body = await unrevertThread(deps, await threadOf(params.id));
    },
  );

  return router;
}
