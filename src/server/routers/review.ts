import type Router from '@koa/router';
import { z } from 'zod';
import { GitDiffResultSchema } from '../../protocol/hostGitCommands';
import { IdParamsSchema } from '../http/idParams';
import { mustGet } from '../http/lookups';
import { addRoute, apiRouter } from '../http/routeSpec';
import { createReviewComment, reviewCommentOf, reviewCommentOfThread } from '../review/reviewComments';
import {
  DiffQuerySchema,
  ReviewCommentBodySchema,
  ReviewCommentParamsSchema,
  ReviewCommentPatchSchema,
  ReviewCommentSchema,
} from '../review/reviewCommentSchemas';
import { listReviewComments } from '../review/staleComments';
import { answerDiffInParts } from '../review/streamedDiff';
import { threadDiff } from '../review/threadDiff';
import type { AppDeps } from './appDeps';

/** The review loop of a thread (issue 38): its diff, and review comments on it that a prompt sends to its agent. */
export function reviewRouter(deps: AppDeps): Router {
  const router = apiRouter(deps.config);
  const tag = 'review';
  const threadOf = (id: string) => mustGet(deps.registry.threads, id, 'thread');

  addRoute(
    router,
    {
      method: 'get',
      path: '/threads/:id/diff',
      summary: 'The thread’s changes: uncommitted, of its branch (worktree threads) or of one turn',
      tag,
      params: IdParamsSchema,
      query: DiffQuerySchema,
      responses: { 200: { description: 'The host’s git diff', schema: GitDiffResultSchema } },
    },
    async (ctx, { params, query }) => {
      const thread = await threadOf(params.id);
      await answerDiffInParts(ctx, (onFiles) => threadDiff(deps, thread, query.scope, { ...query, onFiles }));
    },
  );

  addRoute(
    router,
    {
      method: 'post',
      path: '/threads/:id/review-comments',
      summary: 'Comment on a line of the thread’s diff (a draft until a prompt sends it)',
      tag,
      params: IdParamsSchema,
      body: ReviewCommentBodySchema,
      responses: { 201: { description: 'The comment, with the line it points at', schema: ReviewCommentSchema } },
    },
    async (ctx, { params, body }) => {
      const thread = await threadOf(params.id);
      const record = await createReviewComment(deps, thread, body);
      ctx.status = 201;
      ctx.set('Location', `/api/v1/threads/${thread.id}/review-comments/${record.id}`);
      ctx.body = reviewCommentOf(record);
    },
  );

  addRoute(
    router,
    {
      method: 'get',
      path: '/threads/:id/review-comments',
      summary: 'The thread’s review comments, oldest first; a draft whose line changed since reads `stale`',
      tag,
      params: IdParamsSchema,
      responses: { 200: { description: 'Review comments', schema: z.array(ReviewCommentSchema) } },
    },
    async (ctx, { params }) => {
      ctx.body = await listReviewComments(deps, await threadOf(params.id));
    },
  );

  addRoute(
    router,
    {
      method: 'patch',
      path: '/threads/:id/review-comments/:commentId',
      summary: 'Change a review comment’s text',
      tag,
      params: ReviewCommentParamsSchema,
      body: ReviewCommentPatchSchema,
      responses: { 200: { description: 'The comment as changed', schema: ReviewCommentSchema } },
    },
    async (ctx, { params, body }) => {
      const record = await reviewCommentOfThread(deps, await threadOf(params.id), params.commentId);
      const changed = { ...record, text: body.text };
      await deps.registry.reviewComments.update(changed);
      ctx.body = reviewCommentOf(changed);
    },
  );

  addRoute(
    router,
    {
      method: 'delete',
      path: '/threads/:id/review-comments/:commentId',
      summary: 'Drop a review comment',
      tag,
      params: ReviewCommentParamsSchema,
      responses: { 204: { description: 'Dropped' } },
    },
    async (ctx, { params }) => {
      const record = await reviewCommentOfThread(deps, await threadOf(params.id), params.commentId);
      await deps.registry.reviewComments.remove(record.id);
      ctx.status = 204;
    },
  );

  return router;
}
