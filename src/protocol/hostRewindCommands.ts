import { z } from 'zod';
import { hostPath } from './hostFiles';

/**
 * Rewind commands of the host-daemon contract (issue 39): a thread's files put back as they were at the start
 * of one of its turns, from the turn trees issue 38 records, and brought forward again. The current state is
 * stored first under `refs/ats/reverts/<threadId>/…` (a stash-shaped commit: files, index, HEAD), so nothing
 * uncommitted is ever lost. The host writes the thread's `thread/reverted` / `thread/unreverted` row itself,
 * so a daemon killed in the middle finishes the revert at its next start and the row says it happened.
 */
const ThreadId = z.string().regex(/^thr_/, 'a thread id starts with thr_');

export const RevertTurnParamsSchema = z.strictObject({
  threadId: ThreadId,
  /** The thread's folder: its worktree, or the checkout for a checkout thread. */
  path: hostPath,
  turnId: z.string().min(1),
});
export type RevertTurnParams = z.infer<typeof RevertTurnParamsSchema>;
export const RevertTurnResultSchema = z.strictObject({
  turnId: z.string(),
  /** Where the state before the revert is kept; `git.unrevert` brings it back. */
  snapshotRef: z.string(),
  /** The turn and every recorded turn after it, oldest first: the turns whose changes are undone. */
  undoneTurnIds: z.array(z.string()),
});
export type RevertTurnResult = z.infer<typeof RevertTurnResultSchema>;

export const UnrevertParamsSchema = z.strictObject({ threadId: ThreadId, path: hostPath });
export type UnrevertParams = z.infer<typeof UnrevertParamsSchema>;
export const UnrevertResultSchema = z.strictObject({ turnId: z.string(), snapshotRef: z.string() });
export type UnrevertResult = z.infer<typeof UnrevertResultSchema>;

export const hostRewindCommands = {
  'git.revert_turn': { params: RevertTurnParamsSchema, result: RevertTurnResultSchema },
  'git.unrevert': { params: UnrevertParamsSchema, result: UnrevertResultSchema },
} as const;
