import type { ThreadUpdatedParams } from '../protocol/threadUpdateFrame';
import type { TurnTransition } from './turnTransition';

/**
 * A change of the thread's own fields is one row, and changes no turn: it belongs to the open turn when one
 * runs (E7: rows between a turn's start and end are the turn's), else to the thread.
 *
 * ```
 * thread/updated {title}            ─▶ thread/updated {title}           (thread-scoped)
 * turn open, thread/updated {...}   ─▶ thread/updated {...}             (scoped to the open turn)
 * ```
 */
export function onThreadUpdated(t: TurnTransition, { threadId: _thread, ...changes }: ThreadUpdatedParams): void {
  t.emit({ kind: 'threadUpdated', changes });
}
