import type { AcpUsage } from '../protocol/acpFrames';
import { errorMessageOf } from '../protocol/errorMessages';
import { tokenCountsOf, type RunOutcome } from './runOutcome';
import type { TurnTransition } from './turnTransition';

/**
 * One ACP `session/prompt` is one turn: its request opens it (client-started, its run active until the answer)
 * and its answer closes it by the `stopReason`. A user stop marks the turn; the agent's `cancelled` answer then
 * closes it `interrupted` once (or the grace does, when the agent never answers: promptRules.ts).
 *
 * ```
 * acp/prompt/started ─▶ turn/started {origin: client}, [item/started + item/completed {userMessage}]
 * acp/prompt/ended   ─▶ [thread/tokenUsage/updated], turn/completed {status}, [thread/contextWindowUsage/updated]
 *   end_turn → completed · cancelled → interrupted · refusal, max_tokens, max_turn_requests, error → failed
 * ```
 */
export function onAcpPromptStarted(t: TurnTransition, prompt: string | undefined): void {
  t.state.promptStartedSeen = true;
  const turn = t.state.turn;
  if (turn) {
    // A prompt sent while one runs (an agent that queues prompts): the turn closes with the last answer.
    turn.promptsOutstanding += 1;
    turn.runActive = true;
  } else {
    t.state.promptsForNextTurn += 1;
    t.openTurn();
  }
  // An ACP agent never echoes the prompt: the turn shows it from here, where it was sent (issue 29).
  if (prompt !== undefined) t.userMessage(prompt);
}

export function onAcpPromptEnded(
  t: TurnTransition,
  answer: { stopReason?: string; usage?: AcpUsage; error?: unknown },
  envelope: unknown,
): void {
  const turn = t.state.turn;
  if (!turn) {
    // The answer of a prompt whose turn already closed (a grace elapsed, its process ended): kept, never reopened.
    t.state.orphanRun = false;
    return t.emit({ kind: 'unhandled', rawType: 'acp/prompt/ended', rawEvent: envelope });
  }
  turn.promptsOutstanding = Math.max(0, turn.promptsOutstanding - 1);
  if (turn.promptsOutstanding > 0) return;
  turn.runActive = false;
  const outcome = answer.usage === undefined ? undefined : outcomeOf(answer.usage, answer.stopReason);
  if (turn.stopRequested || answer.stopReason === 'cancelled') return t.closeTurn('interrupted', undefined, outcome);
  if (answer.error !== undefined) return t.closeTurn('failed', errorMessageOf(answer.error), outcome);
  if (answer.stopReason === 'end_turn') return t.closeTurn('completed', undefined, outcome);
  t.closeTurn('failed', failureOf(answer.stopReason), outcome);
}

const STOP_REASON_MESSAGES: Record<string, string> = {
  refusal: 'The agent refused to continue (stopReason: refusal)',
  max_tokens: 'The model reached its output token limit (stopReason: max_tokens)',
  max_turn_requests: 'The agent reached its limit of model requests for one prompt (stopReason: max_turn_requests)',
};

function failureOf(stopReason: string | undefined): string {
  if (stopReason === undefined) return 'The agent answered the prompt without a stopReason';
  return STOP_REASON_MESSAGES[stopReason] ?? `The agent stopped: ${stopReason}`;
}

/** ACP counts input without cache reads and writes, as pi does: the same conversion (runOutcome.ts). */
function outcomeOf(usage: AcpUsage, stopReason: string | undefined): RunOutcome {
  const counts = tokenCountsOf({
    input: usage.inputTokens,
    output: usage.outputTokens,
    cacheRead: usage.cachedReadTokens ?? 0,
    cacheWrite: usage.cachedWriteTokens ?? 0,
    totalTokens: usage.totalTokens,
  });
  const context = { reportedTokens: counts.totalTokens > 0 ? counts.totalTokens : undefined, trailingTokens: 0 };
  return { finalText: '', stopReason, errorMessage: undefined, lastUsage: counts, runUsage: counts, context };
}
