import type Router from '@koa/router';
import { z } from 'zod';
import { IdParamsSchema } from '../http/idParams';
import { mustGet } from '../http/lookups';
import { addRoute, apiRouter } from '../http/routeSpec';
import { answerApproval, ApprovalAnswerBodySchema, ApprovalAnsweredSchema } from '../threads/answerApproval';
import { promptThread } from '../threads/promptThread';
import { promptWithReview } from '../../protocol/reviewBlock';
import { commentsToSend, markSent } from '../review/reviewComments';
import type { AppDeps } from './appDeps';

export const PromptBodySchema = z.strictObject({
  prompt: z.string().min(1),
  /** Review comments of the thread sent with the prompt, as one block after it (issue 38); each becomes `sent`. */
  reviewCommentIds: z.array(z.string().min(1)).max(500).optional(),
});
export const PromptAcceptedSchema = z.strictObject({ threadId: z.string(), followUp: z.boolean() });
export const StopResultSchema = z.strictObject({ threadId: z.string(), seqs: z.array(z.number().int().positive()) });
export const ApprovalParamsSchema = z.strictObject({ id: z.string().min(1), approvalId: z.string().min(1) });

/** A thread's turns: prompt, stop, and answer the agent's questions (listed with the threads' other routes). */
export function threadTurnsRouter(deps: AppDeps): Router {
  const router = apiRouter(deps.config);
  const tag = 'threads';
  addRoute(
    router,
    {
      method: 'post',
      path: '/threads/:id/messages',
      summary: 'Prompt the thread’s agent (a follow-up while a turn runs)',
      tag,
      params: IdParamsSchema,
      body: PromptBodySchema,
      responses: { 202: { description: 'Accepted', schema: PromptAcceptedSchema } },
    },
    async (ctx, { params, body }) => {
      const thread = await mustGet(deps.registry.threads, params.id, 'thread');
      const comments = await commentsToSend(deps, thread, body.reviewCommentIds ?? []);
      const { followUp } = await promptThread(deps, params.id, promptWithReview(body.prompt, comments));
      await markSent(deps, comments);
      ctx.status = 202;
      ctx.body = { threadId: params.id, followUp } satisfies z.infer<typeof PromptAcceptedSchema>;
    },
  );

  addRoute(
    router,
    {
      method: 'post',
      path: '/threads/:id/stop',
      summary: 'Stop the running turn',
      tag,
      params: IdParamsSchema,
      responses: { 200: { description: 'Seqs of the rows the stop stored', schema: StopResultSchema } },
    },
    async (ctx, { params }) => {
      const thread = await mustGet(deps.registry.threads, params.id, 'thread');
      const { seqs } = await deps.hosts.call(thread.hostId, 'thread.stop', { threadId: thread.id });
      ctx.body = { threadId: thread.id, seqs };
    },
  );

  addRoute(
    router,
    {
      method: 'post',
      path: '/threads/:id/approvals/:approvalId',
      summary: 'Answer a question of the thread’s agent with one of the options it offered',
      tag,
      params: ApprovalParamsSchema,
      body: ApprovalAnswerBodySchema,
      responses: { 200: { description: 'The answer the agent got', schema: ApprovalAnsweredSchema } },
    },
    async (ctx, { params, body }) => {
      const thread = await mustGet(deps.registry.threads, params.id, 'thread');
      ctx.body = await answerApproval(deps.hosts, thread, params.approvalId, body.optionId);
    },
  );
  return router;
}
