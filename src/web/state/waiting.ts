import { signal } from '@preact/signals';
import type { Thread } from '../api/types';

/** The runtime fields of issue 27, read leniently: a server without them shows no thread as waiting. */
interface ApprovalRuntime {
  activity?: 'waiting-for-approval' | 'working' | 'idle';
  pendingApprovalIds?: string[];
}

/**
 * The open thread's unanswered questions, from its own rows: fresher than the lists' poll, so its marker
 * comes and goes the moment a question's row or its answer's row arrives.
 */
export const openThreadPending = signal<{ threadId: string; approvalIds: string[] } | null>(null);

/** A thread waits for its user while the agent's question is unanswered. */
export function isWaiting(thread: Thread): boolean {
  const open = openThreadPending.value;
  if (open && open.threadId === thread.id) return open.approvalIds.length > 0;
  const runtime = thread.runtime as ApprovalRuntime;
  return runtime.activity === 'waiting-for-approval' || (runtime.pendingApprovalIds?.length ?? 0) > 0;
}
