import { RUN_LOST_MESSAGE } from './ruleInput';
import type { OpenTurn } from './turnState';
import type { TurnTransition } from './turnTransition';

/**
 * The client side of the turn rules: `prompt/started`, `prompt/settled` (E5) and user stops. A turn is
 * completed exactly once whatever order these and the run's own events arrive in.
 */

export function onPromptStarted(t: TurnTransition, prompt: string | undefined): void {
  t.state.promptStartedSeen = true;
  if (t.state.turn) {
    t.state.turn.promptsOutstanding += 1; // a follow-up queued into the running turn
    return;
  }
  t.state.promptsForNextTurn += 1;
  t.state.waitingPromptTexts = [...t.state.waitingPromptTexts, prompt ?? null];
}

export function onPromptSettled(t: TurnTransition, error: string | undefined): void {
  const { state } = t;
  const turn = state.turn;
  if (turn && turn.promptsOutstanding > 0) {
    turn.promptsOutstanding -= 1;
    if (turn.promptsOutstanding === 0) settle(t, turn, error);
  } else if (state.promptsForNextTurn > 0) {
    // The prompt ended before any run took it (no key, no agent): its own failed turn shows it and why
    // (issue 29); a sender that did not name the prompt gets the reason alone, outside any turn.
    state.promptsForNextTurn -= 1;
    const [text, ...waiting] = state.waitingPromptTexts;
    state.waitingPromptTexts = waiting;
    if (error === undefined) return;
    if (typeof text === 'string') t.refusePrompt(text, error);
    else t.emit({ kind: 'providerError', message: error, willRetry: false });
  } else if (!turn && state.unsettledPromptsOfLastTurn > 0) {
    state.unsettledPromptsOfLastTurn -= 1; // its turn already completed (E5 no-op)
  } else if (turn && !state.promptStartedSeen) {
    settle(t, turn, error);
  }
  // Otherwise the settle belongs to a turn that is already closed: E5 says no-op.
}

/**
 * E5: a settle that arrives while the run still streams must not split it; the run's `agent_end` closes the
 * turn. A settle with an error says the prompt failed: if no `agent_end` follows within the grace, the run is
 * taken as dead and the turn closes `failed` with that error (an SDK rejection, an intake agent that died).
 */
function settle(t: TurnTransition, turn: OpenTurn, error: string | undefined): void {
  turn.settled = true;
  turn.settleError ??= error;
  closeIfDue(t, turn);
  if (t.state.turn === turn && turn.settleError !== undefined) t.startGrace(turn);
}

export function closeIfDue(t: TurnTransition, turn: OpenTurn): void {
  if (turn.runActive || turn.retryPending) return;
  if (turn.stopRequested) t.closeTurn('interrupted');
  else if (turn.settled) t.closeTurn(turn.settleError === undefined ? 'completed' : 'failed', turn.settleError);
}

/** A stop closes the turn `interrupted` exactly once: at the aborted run's end, or when the grace ends first. */
export function onStop(t: TurnTransition): void {
  const turn = t.state.turn;
  if (!turn) return;
  turn.stopRequested = true;
  if (!turn.runActive) t.closeTurn('interrupted');
  else t.startGrace(turn);
}

/**
 * The run did not report its end within the grace: the turn closes without it, and whatever the run still
 * sends is kept outside the turn (`orphanRun`). A grace of a turn already closed, or of an earlier state
 * (a restore in between), finds nothing to do.
 */
export function onGraceElapsed(t: TurnTransition, turnId: string): void {
  const turn = t.state.turn;
  if (!turn || turn.id !== turnId || !turn.closesAfterGrace) return;
  const runGoesOn = turn.runActive || turn.retryPending;
  if (turn.stopRequested) t.closeTurn('interrupted', undefined, undefined, runGoesOn);
  else t.closeTurn('failed', turn.settleError ?? 'The run did not end', undefined, runGoesOn);
}

/**
 * A run belongs to a process: a turn that a run of an earlier process left open can never be ended by that run
 * (it died with its process: crash, SIGKILL, power loss, OOM, or a plain restart). It closes before any other
 * row of the thread, as `interrupted` with the reason, so the next prompt starts a new turn. An intake agent
 * that outlived the process may still send events of that run: they are kept outside the turn (`orphanRun`).
 */
export function onRestored(t: TurnTransition, processEpoch: string): void {
  const turn = t.state.turn;
  if (turn && turn.processEpoch !== processEpoch) t.closeTurn('interrupted', RUN_LOST_MESSAGE, undefined, true);
}
