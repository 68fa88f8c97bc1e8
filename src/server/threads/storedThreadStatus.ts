import { THREAD_EVENT_TYPE, TurnStatusSchema, type ThreadStatus, type TurnStatus } from '../../protocol/threadEvents';
import type { EventStore, StoredThreadEvent } from '../../store/eventStore';

/** Rows read in the first page back from the end; each further page doubles (a long turn is read in few steps). */
const FIRST_PAGE_ROWS = 64;

/** What a thread's stored rows tell of it now: its status and the questions still waiting for an answer. */
export interface StoredThreadState {
  status: ThreadStatus;
  /** `approval/requested` rows since the last turn boundary without their `approval/resolved`, in the order asked. */
  pendingApprovalIds: string[];
  /** The nearest boundary's `turn/completed` status; null when it is a `turn/started` (a turn is open) or there is none. */
  lastTurnStatus: TurnStatus | null;
}

/**
 * A thread's status as its stored rows tell it (spec part 3: `active` while a turn is open), for when its
 * host cannot be asked. The rule is `restoreTurnState`'s (turn/started opens, turn/completed closes), read
 * backwards from the last row to the nearest turn boundary: the cost is the length of the last turn, not of
 * the thread, and no turn state is rebuilt.
 */
export async function storedThreadStatus(store: EventStore, threadId: string): Promise<ThreadStatus> {
  return (await storedThreadState(store, threadId)).status;
}

/**
 * `storedThreadStatus` with the open questions. A turn boundary resolves every question open at it (the turn
 * rules cancel them, turnTransition.ts), so the rows after the nearest boundary hold all that can be pending.
 */
export async function storedThreadState(store: EventStore, threadId: string): Promise<StoredThreadState> {
  const sinceBoundary: StoredThreadEvent[][] = []; // pages, newest first
  let status: ThreadStatus = 'idle';
  let lastTurnStatus: TurnStatus | null = null;
  let end = await store.lastSeq(threadId);
  reading: for (let size = FIRST_PAGE_ROWS; end > 0; size *= 2) {
    const afterSeq = Math.max(0, end - size);
    const rows = await store.list(threadId, { afterSeq, limit: end - afterSeq });
    for (let i = rows.length - 1; i >= 0; i -= 1) {
      const type = rows[i]!.type;
      if (type === THREAD_EVENT_TYPE.turnCompleted || type === THREAD_EVENT_TYPE.turnStarted) {
        if (type === THREAD_EVENT_TYPE.turnStarted) status = 'active';
        else lastTurnStatus = TurnStatusSchema.catch('completed').parse(rows[i]!.data['status']);
        sinceBoundary.push(rows.slice(i + 1));
        break reading;
      }
    }
    sinceBoundary.push(rows);
    end = afterSeq;
  }
  return { status, pendingApprovalIds: pendingIn(sinceBoundary.reverse().flat()), lastTurnStatus };
}

function pendingIn(rows: readonly StoredThreadEvent[]): string[] {
  const pending: string[] = [];
  for (const row of rows) {
    if (row.type === THREAD_EVENT_TYPE.approvalRequested && !pending.includes(row.data.approvalId)) pending.push(row.data.approvalId);
    if (row.type === THREAD_EVENT_TYPE.approvalResolved) {
      const at = pending.indexOf(row.data.approvalId);
      if (at >= 0) pending.splice(at, 1);
    }
  }
  return pending;
}
