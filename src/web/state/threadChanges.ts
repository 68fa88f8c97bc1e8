import type { Thread } from '../api/types';

/** What a user is told about: a turn that ended, one that failed, or an agent's question waiting for an answer. */
export type ThreadChangeKind = 'completed' | 'failed' | 'approval';

export interface ThreadChange {
  threadId: string;
  title: string;
  kind: ThreadChangeKind;
}

/** The part of a thread's view the changes are read from, kept between two polls of the lists. */
export interface ThreadMark {
  status: string;
  lastTurnStatus: string | null;
  pendingApprovalIds: string[];
}

export function markOf(thread: Thread): ThreadMark {
  const runtime = thread.runtime as { pendingApprovalIds?: string[] };
  return { status: thread.status, lastTurnStatus: thread.lastTurnStatus, pendingApprovalIds: runtime.pendingApprovalIds ?? [] };
}

/**
 * What changed between two polls of the thread list: a turn ended when a working thread went idle (or its
 * last turn's outcome changed), and a question is new when an approval id appears. A thread the earlier poll
 * did not list says nothing: a page that just opened must not announce what happened before it looked.
 */
export function threadChanges(before: ReadonlyMap<string, ThreadMark>, after: readonly Thread[]): ThreadChange[] {
  const changes: ThreadChange[] = [];
  for (const thread of after) {
    const earlier = before.get(thread.id);
    if (!earlier) continue;
    const now = markOf(thread);
    const ended = (earlier.status === 'active' && now.status === 'idle') || earlier.lastTurnStatus !== now.lastTurnStatus;
    if (ended && now.status === 'idle' && (now.lastTurnStatus === 'completed' || now.lastTurnStatus === 'failed'))
      changes.push({ threadId: thread.id, title: thread.title, kind: now.lastTurnStatus });
    if (now.pendingApprovalIds.some((id) => !earlier.pendingApprovalIds.includes(id)))
      changes.push({ threadId: thread.id, title: thread.title, kind: 'approval' });
  }
  return changes;
}

export function changeText(kind: ThreadChangeKind): string {
  if (kind === 'completed') return 'The turn completed.';
  if (kind === 'failed') return 'The turn failed.';
  return 'The agent needs your answer.';
}
