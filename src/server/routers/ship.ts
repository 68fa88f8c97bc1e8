import type Router from '@koa/router';
import { IdParamsSchema } from '../http/idParams';
import { mustGet } from '../http/lookups';
import { addRoute, apiRouter } from '../http/routeSpec';
import { commitThread, pushThread } from '../ship/commitThread';
import { openPullRequest } from '../ship/openPullRequest';
import {
  CommitAnswerSchema,
  CommitBodySchema,
  PullRequestAnswerSchema,
  PullRequestBodySchema,
  PushAnswerSchema,
  PushBodySchema,
} from '../ship/shipSchemas';
import type { AppDeps } from './appDeps';

/** Shipping a thread's work (issue 39, docs/ship.md): commit, push, pull request; git and the forge CLI run on its host. */
export function shipRouter(deps: AppDeps): Router {
  const router = apiRouter(deps.config);
  const tag = 'ship';
  const threadOf = (id: string) => mustGet(deps.registry.threads, id, 'thread');

  addRoute(
    router,
    {
      method: 'post',
      path: '/threads/:id/commit',
      summary: 'Commit the thread’s changes (all, or `paths`) on its branch; `generate` has its agent write the message',
      tag,
      params: IdParamsSchema,
      body: CommitBodySchema,
      responses: { 201: { description: 'The commit (also the row `git/committed`)', schema: CommitAnswerSchema } },
    },
    async (ctx, { params, body }) => {
      ctx.status = 201;
      ctx.body = await commitThread(deps, await threadOf(params.id), body);
    },
  );

  addRoute(
    router,
    {
      method: 'post',
      path: '/threads/:id/push',
      summary: 'Push the thread’s branch (`git push -u`; default its upstream remote, else origin)',
      tag,
      params: IdParamsSchema,
      body: PushBodySchema,
      responses: { 200: { description: 'What was pushed (also the row `git/pushed`)', schema: PushAnswerSchema } },
    },
    async (ctx, { params, body }) => {
      ctx.body = await pushThread(deps, await threadOf(params.id), body.remote);
    },
  );

  addRoute(
    router,
    {
      method: 'post',
      path: '/threads/:id/pull-request',
      summary: 'Open a pull request of the thread’s branch with the host’s forge CLI (gh, glab), pushing first if needed',
      tag,
      params: IdParamsSchema,
      body: PullRequestBodySchema,
      responses: {
        201: { description: 'The pull request as the thread keeps it (also the row `pr/opened`)', schema: PullRequestAnswerSchema },
      },
    },
    async (ctx, { params, body }) => {
      ctx.status = 201;
      ctx.body = await openPullRequest(deps, await threadOf(params.id), body);
    },
  );

  return router;
}
