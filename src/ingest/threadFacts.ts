import type { ThreadStatus, TurnStatus } from '../protocol/threadEvents';
import type { StoredThreadEvent } from '../store/eventStore';
import { lastTurnStatusOf } from '../turns/lastTurnStatus';

/** What the ingest knows of one thread, read from the rows as they pass (and from the store read when it is first seen). */
export interface ThreadFacts {
  /** `active` while a turn is open. */
  readonly status: ThreadStatus;
  readonly lastTurn: TurnStatus | null;
  /** The questions asked and not answered yet, in the order asked. */
  readonly pendingApprovalIds: readonly string[];
  readonly promptAwaitingRun: boolean;
}

/** One pipeline step's facts about its thread (`threadEvents`' value). */
export interface ThreadStepFacts {
  threadId: string;
  turnOpen: boolean;
  rows: readonly StoredThreadEvent[];
  pendingApprovalIds?: readonly string[];
  promptAwaitingRun?: boolean;
}

const UNKNOWN: ThreadFacts = { status: 'idle', lastTurn: null, pendingApprovalIds: [], promptAwaitingRun: false };

/** One record per thread instead of a map per fact: what `threadStatus`, `lastTurnStatus` and the others answer without a store read. */
export function createThreadFactsBook() {
  const facts = new Map<string, ThreadFacts>();
  const of = (threadId: string): ThreadFacts => facts.get(threadId) ?? UNKNOWN;
  const lastTurnAfter = (threadId: string, rows: readonly StoredThreadEvent[]) =>
    rows.length > 0 ? lastTurnStatusOf(rows, of(threadId).lastTurn) : of(threadId).lastTurn;
  return {
    of,
    /** Rows read from the store when a thread is first seen. */
    noteRead(threadId: string, rows: readonly StoredThreadEvent[]): void {
      if (rows.length > 0) facts.set(threadId, { ...of(threadId), lastTurn: lastTurnAfter(threadId, rows) });
    },
    noteStep(step: ThreadStepFacts): void {
      facts.set(step.threadId, {
        status: step.turnOpen ? 'active' : 'idle',
        lastTurn: lastTurnAfter(step.threadId, step.rows),
        pendingApprovalIds: step.pendingApprovalIds ?? [],
        promptAwaitingRun: step.promptAwaitingRun ?? false,
      });
    },
  };
}
