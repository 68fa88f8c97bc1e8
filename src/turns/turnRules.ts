import { AgentEndSchema, AgentSettledSchema, messageRoleOf, textDeltaOf, type SdkEvent } from '../protocol/sdkEvents';
import { errorMessageOf } from '../protocol/errorMessages';
import { onAcpEvent } from './acpRules';
import { onApprovalRequested, onApprovalResolved } from './approvalRules';
import { addTokens, runOutcomeOf, type RunOutcome } from './runOutcome';
import { closeIfDue, onGraceElapsed, onPromptSettled, onPromptStarted, onRestored, onStop } from './promptRules';
import type { RuleInput } from './ruleInput';
import { onThreadUpdated } from './threadUpdateRules';
import { onToolEnd, onToolStart, onToolUpdate } from './toolRules';
import { TurnTransition } from './turnTransition';
import { userMessageItemOf } from './userMessages';
import type { OpenTurn, ThreadTurnState, TurnFact } from './turnState';

/** E6: boundaries of these roles show up as unhandled rows (the spec calls treating them otherwise an open improvement). */
export const UNHANDLED_MESSAGE_ROLES: ReadonlySet<string> = new Set(['custom', 'bashExecution', 'branchSummary', 'compactionSummary']);

/** SDK events that need no thread event; anything not listed here and not handled below is `provider/unhandled`. */
export const RECOGNISED_SILENT_EVENTS: ReadonlySet<string> = new Set([
  'turn_start',
  'turn_end',
  'message_update',
  'queue_update',
  'auto_retry_end',
  'compaction_start',
  'compaction_end',
  'session_info_changed',
  'thinking_level_changed',
  'entry_appended',
]);

export interface TurnStep {
  state: ThreadTurnState;
  facts: TurnFact[];
  /** The turn whose grace this input started: a `graceElapsed` for it is due `turnGraceMs` from now. */
  graceFor?: string;
}

/** The turn rules (E1–E7) for one thread, as a pure function of its state and one input. */
export function reduceTurn(state: ThreadTurnState, input: RuleInput, newId: () => string): TurnStep {
  // A restore replaces the thread's state with what its rows tell, then applies the restore rule to it.
  const t = new TurnTransition(input.kind === 'restored' ? input.state : state, newId);
  switch (input.kind) {
    case 'sdk':
      onSdkEvent(t, input.event, input.envelope);
      break;
    case 'promptStarted':
      onPromptStarted(t, input.prompt);
      break;
    case 'promptSettled':
      onPromptSettled(t, input.error === undefined ? undefined : errorMessageOf(input.error));
      break;
    case 'stop':
      onStop(t);
      break;
    case 'acp':
      onAcpEvent(t, input.event, input.envelope);
      break;
    case 'approvalRequested':
      onApprovalRequested(t, input.request);
      break;
    case 'approvalResolved':
      onApprovalResolved(t, input.resolution);
      break;
    case 'threadUpdated':
      onThreadUpdated(t, input.changes);
      break;
    case 'rewound':
      t.emit({ kind: 'rewound', change: input.change }); // like thread/updated: one row, no turn changes
      break;
    case 'shipRow':
      // Like thread/updated: one row, no turn changed (the open turn's when one runs, E7).
      t.emit({ kind: 'shipRow', row: input.row });
      break;
    case 'restored':
      onRestored(t, input.processEpoch);
      break;
    case 'graceElapsed':
      onGraceElapsed(t, input.turnId);
      break;
  }
  return t.graceFor === undefined ? { state: t.state, facts: t.facts } : { state: t.state, facts: t.facts, graceFor: t.graceFor };
}

function onSdkEvent(t: TurnTransition, event: SdkEvent, envelope: unknown): void {
  if (!t.state.turn && t.state.orphanRun && event.type !== 'agent_start') return onOrphanEvent(t, event, envelope);
  switch (event.type) {
    case 'agent_start':
      if (!t.state.turn) t.openTurn();
      else Object.assign(t.state.turn, { runActive: true, retryPending: false });
      return;
    case 'agent_end':
      return onAgentEnd(t, event, envelope);
    case 'agent_settled':
      return onAgentSettled(t, event);
    case 'message_start':
    case 'message_end':
      return onMessageBoundary(t, event, envelope);
    case 'message_update':
      return onMessageUpdate(t, event);
    case 'auto_retry_start':
      return onAutoRetryStart(t, event);
    case 'tool_execution_start':
      return onToolStart(t, event, envelope);
    case 'tool_execution_update':
      return onToolUpdate(t, event, envelope);
    case 'tool_execution_end':
      return onToolEnd(t, event, envelope);
    default:
      if (!RECOGNISED_SILENT_EVENTS.has(event.type)) t.emit({ kind: 'unhandled', rawType: `sdk/${event.type}`, rawEvent: envelope });
  }
}

function onAgentEnd(t: TurnTransition, event: SdkEvent, envelope: unknown): void {
  const parsed = AgentEndSchema.safeParse(event);
  const turn = t.state.turn;
  if (!parsed.success) {
    // E4: the turn stays open; a settle or stop that already arrived may close it now.
    t.emit({ kind: 'unhandled', rawType: 'sdk/agent_end', rawEvent: envelope });
    if (turn) {
      turn.runActive = false;
      closeIfDue(t, turn);
    }
    return;
  }
  // Already closed (a stop while no run streamed, or by an earlier process's restore): a turn completes once,
  // and the end of a run nobody waits for any more is still kept, thread-scoped, never lost.
  if (!turn) return t.emit({ kind: 'unhandled', rawType: 'sdk/agent_end', rawEvent: envelope });
  const outcome = runOutcomeOf(parsed.data);
  if (parsed.data.willRetry) {
    Object.assign(turn, { runActive: false, retryPending: true, retryError: outcome.errorMessage });
    t.state.totals = addTokens(t.state.totals, outcome.runUsage);
    t.emit({ kind: 'providerError', message: outcome.errorMessage ?? 'The run failed and will be retried', willRetry: true });
    return;
  }
  const { status, error } = statusOfRun(turn, outcome);
  t.closeTurn(status, error, outcome);
}

/**
 * An event of a run whose turn was already closed without it (grace elapsed, or its process ended): kept as
 * a thread-scoped `provider/unhandled` row, so it never reopens, extends or duplicates that turn and is never
 * lost. The run's own end (`agent_end`, pi 1.x `agent_settled`) is its last event.
 */
function onOrphanEvent(t: TurnTransition, event: SdkEvent, envelope: unknown): void {
  t.emit({ kind: 'unhandled', rawType: `sdk/${event.type}`, rawEvent: envelope });
  if (event.type === 'agent_end' || event.type === 'agent_settled') t.state.orphanRun = false;
}

function statusOfRun(turn: OpenTurn, outcome: RunOutcome): { status: 'completed' | 'failed' | 'interrupted'; error?: string } {
  if (turn.stopRequested || outcome.stopReason === 'aborted') return { status: 'interrupted' };
  if (outcome.stopReason === 'error') return { status: 'failed', error: outcome.errorMessage ?? 'The model reported an error' };
  return { status: 'completed' };
}

/** pi 1.x: the run and its retries are over; closes a turn nothing else closed (e.g. a retry abandoned in backoff). */
function onAgentSettled(t: TurnTransition, event: SdkEvent): void {
  const turn = t.state.turn;
  if (!turn) return;
  const aborted = AgentSettledSchema.safeParse(event).data?.aborted === true;
  if (aborted || turn.stopRequested) t.closeTurn('interrupted');
  else if (turn.retryPending) t.closeTurn('failed', turn.retryError ?? 'The run failed and was not retried');
  else t.closeTurn(turn.settleError === undefined ? 'completed' : 'failed', turn.settleError);
}

/**
 * pi 0.73 decides to retry only after the failed run's `agent_end` has closed its turn; the retried run then
 * opens a new turn that inherits the unsettled prompts. (pi 1.x says so up front with `willRetry`, and the
 * retry continues the same turn.) Either way the user sees a `provider/error` with `willRetry: true`.
 */
function onAutoRetryStart(t: TurnTransition, event: SdkEvent): void {
  const { state } = t;
  if (state.turn?.retryPending) return; // pi 1.x announced it with agent_end {willRetry: true} already
  if (!state.turn) {
    state.promptsForNextTurn += state.unsettledPromptsOfLastTurn;
    state.unsettledPromptsOfLastTurn = 0;
  }
  const message = typeof event['errorMessage'] === 'string' ? event['errorMessage'] : 'The run failed and will be retried';
  t.emit({ kind: 'providerError', message, willRetry: true });
}

function onMessageBoundary(t: TurnTransition, event: SdkEvent, envelope: unknown): void {
  const role = messageRoleOf(event);
  if (role === undefined || UNHANDLED_MESSAGE_ROLES.has(role)) {
    t.emit({ kind: 'unhandled', rawType: `sdk/${event.type}`, rawEvent: envelope });
    return;
  }
  if (role === 'user') return onUserMessage(t, event);
  if (role !== 'assistant') return;
  // Each assistant message is its own item; a missing message_end must not glue two messages together.
  t.completeItem();
  if (event.type === 'message_start') t.state.item = null;
}

/**
 * What the user sent (a prompt, a follow-up the agent took in while running) becomes a `userMessage` item,
 * started and completed at once as Codex does, when its `message_end` arrives: that is the message as the
 * agent took it. Its `message_start` carries the same message and adds nothing.
 */
function onUserMessage(t: TurnTransition, event: SdkEvent): void {
  if (event.type !== 'message_end') return;
  // An assistant message still open (its message_end lost) ends here: one item never spans what the user said.
  t.completeItem();
  const item = userMessageItemOf(event['message'], t.newItemId());
  t.emit({ kind: 'userMessageStarted', item });
  t.emit({ kind: 'userMessageCompleted', item });
}

function onMessageUpdate(t: TurnTransition, event: SdkEvent): void {
  const delta = textDeltaOf(event);
  if (delta && messageRoleOf(event) === 'assistant') t.appendText(delta);
}
