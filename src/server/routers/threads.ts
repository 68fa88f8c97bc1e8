import type Router from '@koa/router';
import { z } from 'zod';
import { PermissionModeSchema } from '../../protocol/approvals';
import { WorkspaceKindSchema } from '../../protocol/hostGitCommands';
import { IdParamsSchema } from '../http/idParams';
import { mustGet } from '../http/lookups';
import { addRoute, apiRouter } from '../http/routeSpec';
import { createThread } from '../threads/createThread';
import { deleteThread } from '../threads/deleteThread';
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
export const DeleteThreadQuerySchema = z.strictObject({
  /** A worktree thread's branch goes too (it stays by default). */
  deleteBranch: z.enum(['true', 'false']).optional(),
});
export const ThreadsQuerySchema = z.strictObject({
  projectId: z.string().min(1).optional(),
  /** `true`: only archived threads; absent or `false`: only the others. */
  archived: z.enum(['true', 'false']).optional(),
});

/** Threads: create, list, read (with status from the host), change and delete; their turns are threadTurns.ts's. */
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
      ctx.body = await viewOf(await updateThread(deps, params.id, body));
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
      await deleteThread(deps, params.id, { deleteBranch: query.deleteBranch === 'true' });
      ctx.status = 204;
    },
  );

  return router;
}
