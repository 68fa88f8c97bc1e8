import { THREAD_EVENT_TYPE } from '../../protocol/threadEvents';
import type { StoredThreadEvent } from '../../store/eventStore';
import { Problem } from '../http/problem';

/** Where a fork cuts its source's log: the rows it copies, the last one's seq, the turn it continues after. */
export interface ForkCut {
  rows: StoredThreadEvent[];
  /** The seq of the last row copied; 0 when nothing is (a source with no completed turn). */
  sourceSeq: number;
  sourceTurnId: string | null;
  /**
   * The source started a turn after the cut (ended or still running): its agent's session went on past the
   * cut, so a fork of that whole session would hold more than the cut.
   */
  turnsAfter: boolean;
}

/** Rows the pipeline writes right after a turn's `turn/completed` that still tell of that turn (docs/events.md). */
const TURN_TAIL_TYPES = new Set<string>([THREAD_EVENT_TYPE.contextWindowUsage, THREAD_EVENT_TYPE.tokenUsage]);

/**
 * The source's rows up to the end of `turnId` (default: its last completed turn): everything through that
 * turn's `turn/completed`, plus the usage rows the pipeline writes right after it. A turn still running is
 * 409 `turn_not_completed` (its end tree is not there yet), one the thread never had 404 `turn_not_found`.
 */
export function cutAtTurn(rows: readonly StoredThreadEvent[], turnId?: string): ForkCut {
  const completed = rows.filter((row) => row.type === THREAD_EVENT_TYPE.turnCompleted && (turnId === undefined || row.turnId === turnId));
  const end = completed.at(-1);
  if (!end) {
    if (turnId === undefined) return { rows: [], sourceSeq: 0, sourceTurnId: null, turnsAfter: rows.some(isTurnStart) };
    if (rows.some((row) => row.turnId === turnId)) {
      throw new Problem(409, 'turn_not_completed', `turn ${turnId} is still running: fork once it ended`);
    }
    throw new Problem(404, 'turn_not_found', `the thread has no turn ${turnId}`);
  }
  let last = rows.indexOf(end);
  const tellsOfTurn = (row: StoredThreadEvent) => TURN_TAIL_TYPES.has(row.type) && (row.turnId === end.turnId || row.turnId === null);
  while (last + 1 < rows.length && tellsOfTurn(rows[last + 1]!)) last += 1;
  const copied = rows.slice(0, last + 1);
  return { rows: copied, sourceSeq: copied.at(-1)!.seq, sourceTurnId: end.turnId, turnsAfter: rows.slice(last + 1).some(isTurnStart) };
}

const isTurnStart = (row: StoredThreadEvent) => row.type === THREAD_EVENT_TYPE.turnStarted;
