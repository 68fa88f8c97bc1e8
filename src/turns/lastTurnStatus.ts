import { THREAD_EVENT_TYPE, TurnStatusSchema, type TurnStatus } from '../protocol/threadEvents';
import type { StoredThreadEvent } from '../store/eventStore';

/**
 * How the thread's last turn ended, as its rows tell it (rows in seq order, after `previous`): null while a
 * turn is open or before any turn. A list marks a thread whose last turn `failed` (issue 29: a prompt the
 * agent could not take) until the next turn starts.
 */
export function lastTurnStatusOf(rows: readonly StoredThreadEvent[], previous: TurnStatus | null = null): TurnStatus | null {
  let status = previous;
  for (const row of rows) {
    if (row.type === THREAD_EVENT_TYPE.turnStarted) status = null;
    else if (row.type === THREAD_EVENT_TYPE.turnCompleted) status = TurnStatusSchema.catch('completed').parse(row.data.status);
  }
  return status;
}
