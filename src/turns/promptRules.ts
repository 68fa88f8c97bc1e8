import type { OpenTurn } from './turnState';
import type { TurnTransition } from './turnTransition';

/**
 * The client side of the turn rules: `prompt/started`, `prompt/settled` (E5) and user stops. A turn is
 * completed exactly once whatever order these and the run's own events arrive in.
 */

export function onPromptStarted(t: TurnTransition): void {
  t.state.promptStartedSeen = true;
  if (t.state.turn) t.state.turn.promptsOutstanding += 1; // a follow-up queued into the running turn
  else t.state.promptsForNextTurn += 1;
}

export function onPromptSettled(t: TurnTransition, error: string | undefined): void {
  const { state } = t;
  const turn = state.turn;
  if (turn && turn.promptsOutstanding > 0) {
    turn.promptsOutstanding -= 1;
    if (turn.promptsOutstanding === 0) settle(t, turn, error);
  } else if (state.promptsForNextTurn > 0) {
    // The prompt ended before any run started (e.g. rejected at once): nothing to close, but say why.
    state.promptsForNextTurn -= 1;
    if (error !== undefined) t.emit({ kind: 'providerError', message: error, willRetry: false });
  } else if (!turn && state.unsettledPromptsOfLastTurn > 0) {
    state.unsettledPromptsOfLastTurn -= 1; // its turn already completed (E5 no-op)
  } else if (turn && !state.promptStartedSeen) {
    settle(t, turn, error);
  }
  // Otherwise the settle belongs to a turn that is already closed: E5 says no-op.
}

/** E5: a settle that arrives while the run still streams must not split it; the run's `agent_end` closes the turn. */
function settle(t: TurnTransition, turn: OpenTurn, error: string | undefined): void {
  turn.settled = true;
  turn.settleError ??= error;
  closeIfDue(t, turn);
}

export function closeIfDue(t: TurnTransition, turn: OpenTurn): void {
  if (turn.runActive || turn.retryPending) return;
  if (turn.stopRequested) t.closeTurn('interrupted');
  else if (turn.settled) t.closeTurn(turn.settleError === undefined ? 'completed' : 'failed', turn.settleError);
}

export function onStop(t: TurnTransition): void {
  const turn = t.state.turn;
  if (!turn) return;
  turn.stopRequested = true;
  if (!turn.runActive) t.closeTurn('interrupted');
}
