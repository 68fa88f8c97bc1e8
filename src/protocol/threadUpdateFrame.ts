import { z } from 'zod';
import { PermissionModeSchema } from './approvals';
import { SetupRunSchema, WorkspaceStateSchema } from './hostGitCommands';

/**
 * `thread/updated`: the server changed the thread's own fields (rename, archive, keep-running, mode) and sends
 * this frame through `thread.ingest`, so the row is numbered by the pipeline like every other (gapless seq,
 * one writer per thread) and every reader of the thread sees it. Only the changed fields are in it.
 */
export const THREAD_UPDATED_METHOD = 'thread/updated';

export const ThreadUpdatedParamsSchema = z.strictObject({
  threadId: z.string().min(1),
  title: z.string().optional(),
  archived: z.boolean().optional(),
  keepAgentRunning: z.boolean().optional(),
  permissionMode: PermissionModeSchema.optional(),
  /**
   * The thread's worktree changed state (issue 38: made, removed by an archive, brought back); `setup` is the
   * project's setup script as it ran in a new worktree, so its output is in the thread's log.
   */
  workspace: z.strictObject({ state: WorkspaceStateSchema, setup: SetupRunSchema.optional() }).optional(),
});
export type ThreadUpdatedParams = z.infer<typeof ThreadUpdatedParamsSchema>;
/** The fields a `thread/updated` row carries (its `data`, less `providerThreadId`). */
export type ThreadChanges = Omit<ThreadUpdatedParams, 'threadId'>;

export function threadUpdatedFrame(params: ThreadUpdatedParams) {
  return { jsonrpc: '2.0' as const, method: THREAD_UPDATED_METHOD, params };
}
