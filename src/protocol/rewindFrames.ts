import { z } from 'zod';

/**
 * `thread/reverted` and `thread/unreverted` (issue 39): the host put the thread's files back to a turn's start,
 * or forward again, and says so through its own pipeline (numbered like every row). Rows are never deleted:
 * the page dims the undone turns, and the agent is told of them in the next prompt.
 */
export const REWIND_METHOD = { reverted: 'thread/reverted', unreverted: 'thread/unreverted' } as const;
export type RewindMethod = (typeof REWIND_METHOD)[keyof typeof REWIND_METHOD];

export const ThreadRevertedParamsSchema = z.strictObject({
  threadId: z.string().min(1),
  turnId: z.string().min(1),
  snapshotRef: z.string().min(1),
  undoneTurnIds: z.array(z.string()),
});
export type ThreadRevertedParams = z.infer<typeof ThreadRevertedParamsSchema>;

export const ThreadUnrevertedParamsSchema = z.strictObject({
  threadId: z.string().min(1),
  turnId: z.string().min(1),
  snapshotRef: z.string().min(1),
});
export type ThreadUnrevertedParams = z.infer<typeof ThreadUnrevertedParamsSchema>;

/** The row's `data` of either kind, less the thread id. */
export type RewindChange =
  | { method: typeof REWIND_METHOD.reverted; data: Omit<ThreadRevertedParams, 'threadId'> }
  | { method: typeof REWIND_METHOD.unreverted; data: Omit<ThreadUnrevertedParams, 'threadId'> };

export function threadRevertedFrame(params: ThreadRevertedParams) {
  return { jsonrpc: '2.0' as const, method: REWIND_METHOD.reverted, params };
}

export function threadUnrevertedFrame(params: ThreadUnrevertedParams) {
  return { jsonrpc: '2.0' as const, method: REWIND_METHOD.unreverted, params };
}
