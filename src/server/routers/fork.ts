import type Router from '@koa/router';
import { z } from 'zod';
import { WorkspaceKindSchema } from '../../protocol/hostGitCommands';
import { forkThread } from '../fork/forkThread';
import { IdParamsSchema } from '../http/idParams';
import { addRoute, apiRouter } from '../http/routeSpec';
import { createThreadViewer, ThreadViewSchema } from '../threads/threadView';
import type { AppDeps } from './appDeps';

export const ForkThreadBodySchema = z.strictObject({
  /** The turn the fork continues after (default: the thread's last completed turn). */
  turnId: z.string().min(1).optional(),
  /** Default: the source's title and " (fork)". */
  title: z.string().min(1).max(500).optional(),
  /** Default: the source's kind; `worktree` starts at the turn's end tree on a new branch. */
  workspace: WorkspaceKindSchema.optional(),
});

/** `POST /threads/:id/fork` (issue 39, docs/fork.md): a new thread continuing this one from the end of a turn. */
export function forkRouter(deps: AppDeps): Router {
  const router = apiRouter(deps.config);
  const viewOf = createThreadViewer(deps.hosts, deps.store, deps.presence, deps.registry);
  addRoute(
    router,
    {
      method: 'post',
      path: '/threads/:id/fork',
      summary: 'Fork a thread at the end of a turn: its rows, its files and its conversation up to there, in a new thread',
      tag: 'threads',
      params: IdParamsSchema,
      body: ForkThreadBodySchema,
      responses: { 201: { description: 'The new thread', schema: ThreadViewSchema } },
    },
    async (ctx, { params, body }) => {
      const thread = await forkThread(deps, params.id, body);
      ctx.status = 201;
      ctx.set('Location', `/api/v1/threads/${thread.id}`);
      ctx.body = await viewOf(thread);
    },
  );
  return router;
}
