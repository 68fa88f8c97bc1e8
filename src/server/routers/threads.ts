import type Router from '@koa/router';
import { z } from 'zod';
import { PermissionModeSchema } from '../../protocol/approvals';
import { WorkspaceKindSchema } from '../../protocol/hostGitCommands';
import { commentsToSend, markSent } from '../review/reviewComments';
import { promptWithReview } from '../../protocol/reviewBlock';
import { IdParamsSchema } from '../http/idParams';
import { mustGet } from '../http/lookups';
import { addRoute, apiRouter } from '../http/routeSpec';
import { answerApproval, ApprovalAnswerBodySchema, ApprovalAnsweredSchema } from '../threads/answerApproval';
import { Problem } from '../http/problem';
import { createThread } from '../threads/createThread';
import { deleteThread } from '../threads/deleteThread';
import { promptThread } from '../threads/promptThread';
import { createThreadViewer, ThreadViewSchema } from '../threads/threadView';
import { ThreadPatchSchema, updateThread } from '../threads/updateThread';
import type { AppDeps } from './appDeps';

export const CreateThreadBodySchema = z.strictObject({
  projectId: z.string().min(1),
  /** Defaults to the project's own environment. */
  environmentId: z.string().min(1).optional(),
  provider: z.string().min(1),
  model: z.string().min(1),
  title: z.string().min(1).max(500),
  prompt: z.string().min(1).optional(),
  /** `ask`, `accept-edits` (the default) or `full-access` (only where the host allows it: 403 `mode_not_allowed`). */
  permissionMode: PermissionModeSchema.optional(),
  /** `checkout` (the project's folder) or `worktree` (one of its own); default: the project's `defaultWorkspace`. */
  workspace: WorkspaceKindSchema.optional(),
  /** `worktree` only: what it starts from (default: the checkout's `HEAD`). */
  baseRef: z.string().min(1).max(1000).optional(),
  /** `worktree` only: its new branch (default `<prefix>/<short id>-<slug of the title>`); null: detached. */
  branch: z.string().min(1).max(1000).nullable().optional(),
});
export const PromptBodySchema = z.strictObject({
  prompt: z.string().min(1),
  /** Review comments of the thread sent with the prompt, as one block after it (issue 38); each becomes `sent`. */
  reviewCommentIds: z.array(z.string().min(1)).max(500).optional(),
});
export const DeleteThreadQuerySchema = z.strictObject({
  /** A worktree thread's branch goes too (it stays by default). */
  deleteBranch: z.enum(['true', 'false']).optional(),
});
export const ThreadsQuerySchema = z.strictObject({
  projectId: z.string().min(1).optional(),
  /** `true`: only archived threads; absent or `false`: only the others. */
  archived: z.enum(['true', 'false']).optional(),
});
export const PromptAcceptedSchema = z.strictObject({ threadId: z.string(), followUp: z.boolean() });
export const StopResultSchema = z.strictObject({ threadId: z.string(), seqs: z.array(z.number().int().positive()) });
export const ApprovalParamsSchema = z.strictObject({ id: z.string().min(1), approvalId: z.string().min(1) });

/** Threads: create, list, read (with status from the host), change, prompt, stop, and answer the agent's questions. */
export function threadsRouter(deps: AppDeps): Router {
  const router = apiRouter(deps.config);
  const viewOf = createThreadViewer(deps.hosts, deps.store, deps.presence, deps.registry);

  const tag = 'threads';
  addRoute(
    router,
    {
      method: 'post',
      path: '/threads',
      summary: 'Create a thread (and run its first prompt)',
      tag,
      body: CreateThreadBodySchema,
      responses: { 201: { description: 'The thread', schema: ThreadViewSchema } },
    },
    async (ctx, { body }) => {
      const thread = await createThread(deps, body);
      ctx.status = 201;
      ctx.set('Location', `/api/v1/threads/${thread.id}`);
      ctx.body = await viewOf(thread);
    },
  );

  addRoute(
    router,
    {
      method: 'get',
      path: '/threads',
      summary: 'Threads, of one project or all',
      tag,
      query: ThreadsQuerySchema,
      responses: { 200: { description: 'Threads with their status', schema: z.array(ThreadViewSchema) } },
    },
    async (ctx, { query }) => {
      const threads = await deps.registry.threads.find(query.projectId ? { projectId: query.projectId } : {});
      const archived = query.archived === 'true';
      ctx.body = await Promise.all(threads.filter((thread) => (thread.archived ?? false) === archived).map(viewOf));
    },
  );

  addRoute(
    router,
    {
      method: 'get',
      path: '/threads/:id',
      summary: 'One thread with its status',
      tag,
      params: IdParamsSchema,
      responses: { 200: { description: 'The thread', schema: ThreadViewSchema } },
    },
    async (ctx, { params }) => {
      ctx.body = await viewOf(await mustGet(deps.registry.threads, params.id, 'thread'));
    },
  );

  addRoute(
    router,
    {
      method: 'patch',
      path: '/threads/:id',
      summary: 'Rename, archive or unarchive a thread, keep its agent running, or change its permission mode',
      tag,
      params: IdParamsSchema,
      body: ThreadPatchSchema,
      responses: { 200: { description: 'The thread as changed', schema: ThreadViewSchema } },
    },
    async (ctx, { params, body }) => {
      const thread = await mustGet(deps.registry.threads, params.id, 'thread');
      ctx.body = await viewOf(await updateThread(deps, thread, body));
    },
  );

  addRoute(
    router,
    {
      method: 'delete',
      path: '/threads/:id',
      summary: 'Delete a thread: its open turn is stopped, its readers told, its rows, agent session and worktree removed',
      tag,
      params: IdParamsSchema,
      query: DeleteThreadQuerySchema,
      responses: { 204: { description: 'Deleted: the id answers 404 from now on' } },
    },
    async (ctx, { params, query }) => {
      await deleteThread(deps, await mustGet(deps.registry.threads, params.id, 'thread'), { deleteBranch: query.deleteBranch === 'true' });
      ctx.status = 204;
    },
  );

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
      if (thread.archived) throw new Problem(409, 'thread_archived', `thread ${thread.id} is archived: unarchive it to prompt it`);
      const comments = await commentsToSend(deps, thread, body.reviewCommentIds ?? []);
      const { followUp } = await promptThread(deps, thread, promptWithReview(body.prompt, comments));
      await markSent(deps, comments);
      ctx.status = 202;
      ctx.body = { threadId: thread.id, followUp } satisfies z.infer<typeof PromptAcceptedSchema>;
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
