import { THREAD_EVENT_TYPE, type ThreadStatus } from '../../protocol/threadEvents';
import type { EventStore } from '../../store/eventStore';

/** Rows read in the first page back from the end; each further page doubles (a long turn is read in few steps). */
const FIRST_PAGE_ROWS = 64;

/**
 * A thread's status as its stored rows tell it (spec part 3: `active` while a turn is open), for when its
 * host cannot be asked. The rule is `restoreTurnState`'s (turn/started opens, turn/completed closes), read
 * backwards from the last row to the nearest turn boundary: the cost is the length of the last turn, not of
 * the thread, and no turn state is rebuilt.
 */
export async function storedThreadStatus(store: EventStore, threadId: string): Promise<ThreadStatus> {
  let end = await store.lastSeq(threadId);
  for (let size = FIRST_PAGE_ROWS; end > 0; size *= 2) {
    const afterSeq = Math.max(0, end - size);
    const rows = await store.list(threadId, { afterSeq, limit: end - afterSeq });
    for (let i = rows.length - 1; i >= 0; i -= 1) {
      if (rows[i]!.type === THREAD_EVENT_TYPE.turnCompleted) return 'idle';
      if (rows[i]!.type === THREAD_EVENT_TYPE.turnStarted) return 'active';
    }
    end = afterSeq;
  }
  return 'idle';
}

/** What a thread's rows say when its host cannot be asked: its status and its unanswered questions. */
export interface StoredThreadState {
  status: ThreadStatus;
  pendingApprovalIds: string[];
}

/** Placeholder until the rows' approvals are read back (issue 27's pipeline part): none pending. */
export async function storedThreadState(store: EventStore, threadId: string): Promise<StoredThreadState> {
  return { status: await storedThreadStatus(store, threadId), pendingApprovalIds: [] };
}
