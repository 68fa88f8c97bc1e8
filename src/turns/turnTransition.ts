import { ZERO_TOKENS, type TurnStatus, type UserMessageItem } from '../protocol/threadEvents';
import { contextFillOf } from './contextFill';
import { addTokens, type RunOutcome } from './runOutcome';
import type { OpenItem, OpenTurn, ThreadTurnState, TurnFact } from './turnState';
import { withReviewComments } from './userMessages';

/** `approval/resolved.reason` of a question nobody answered before its turn completed (stop, dead agent, grace). */
export const APPROVAL_CANCELLED_AT_TURN_END = 'the turn ended before anyone answered';
/** … and of a question asked outside any turn when the next turn starts: it belonged to no run that goes on. */
export const APPROVAL_CANCELLED_AT_TURN_START = 'a new turn started before anyone answered';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
export type FactBody = DistributiveOmit<TurnFact, 'turnId'>;

/**
 * One step of the turn rules for one thread: a private copy of the state to change, and the facts that the
 * change produced, each stamped with the turn open at that moment (E7). Keeps `reduceTurn` pure.
 */
export class TurnTransition {
  readonly facts: TurnFact[] = [];
  readonly state: ThreadTurnState;
  /** Set when this step started the grace of the open turn: the ingest then schedules its `graceElapsed`. */
  graceFor: string | undefined;

  constructor(
    previous: ThreadTurnState,
    private readonly newId: () => string,
  ) {
    // Explicit copies rather than spreads: this runs once per streamed token.
    const { turn, item } = previous;
    this.state = {
      turn: turn && copyTurn(turn),
      item:
        item &&
        (item.messageId === undefined && !item.reasoning ? { id: item.id, text: item.text, completed: item.completed } : { ...item }),
      tools: previous.tools, // immutable: toolRules replaces the array and its items
      promptsForNextTurn: previous.promptsForNextTurn,
      waitingPromptTexts: previous.waitingPromptTexts, // immutable: promptRules replaces the array
      promptStartedSeen: previous.promptStartedSeen,
      unsettledPromptsOfLastTurn: previous.unsettledPromptsOfLastTurn,
      orphanRun: previous.orphanRun,
      pendingApprovalIds: previous.pendingApprovalIds, // immutable: approvalRules replaces the array
      totals: previous.totals,
      contextTokens: previous.contextTokens,
    };
  }

  emit(fact: FactBody): void {
    (fact as TurnFact).turnId = this.state.turn?.id ?? null;
    this.facts.push(fact as TurnFact);
  }

  /** A fresh id for an item the rules build whole (a user message). */
  newItemId(): string {
    return this.newId();
  }

  /** E1: only called when no turn is open. */
  openTurn(): OpenTurn {
    // A message streamed outside any turn is a thread-scoped item: it completes there, not inside the new turn.
    this.completeItem();
    this.cancelApprovals(APPROVAL_CANCELLED_AT_TURN_START);
    const promptsOutstanding = this.state.promptsForNextTurn;
    const turn: OpenTurn = {
      id: this.newId(),
      origin: promptsOutstanding > 0 ? 'client' : 'agent',
      runActive: true,
      retryPending: false,
      promptsOutstanding,
      settled: false,
      stopRequested: false,
      closesAfterGrace: false,
    };
    this.state.turn = turn;
    this.state.orphanRun = false;
    this.state.promptsForNextTurn = 0;
    if (this.state.waitingPromptTexts.length > 0) this.state.waitingPromptTexts = [];
    this.state.unsettledPromptsOfLastTurn = 0;
    this.state.item = null;
    this.emit({ kind: 'turnStarted', origin: turn.origin });
    return turn;
  }

  /**
   * A prompt the agent never took (no key, no agent, a start that failed): a client turn of its own that holds
   * the prompt as a `userMessage` and completes `failed` with the reason, so every prompt is in the log and its
   * failure is one row right after it (issue 29). Other prompts still waiting for a run keep waiting.
   */
  refusePrompt(text: string, error: string): void {
    const { promptsForNextTurn, waitingPromptTexts, unsettledPromptsOfLastTurn, orphanRun } = this.state;
    this.state.promptsForNextTurn = 1; // the refused prompt: the turn is client-started
    const turn = this.openTurn();
    this.userMessage(text);
    turn.promptsOutstanding = 0;
    this.closeTurn('failed', error);
    Object.assign(this.state, { promptsForNextTurn, waitingPromptTexts, unsettledPromptsOfLastTurn, orphanRun });
  }

  /** What the user sent, as a `userMessage` item started and completed at once (as Codex does). */
  userMessage(text: string): void {
    this.completeItem(); // an item never spans what the user said
    const item: UserMessageItem = withReviewComments({ type: 'userMessage', id: this.newId(), content: [{ type: 'text', text }] });
    this.emit({ kind: 'userMessageStarted', item });
    this.emit({ kind: 'userMessageCompleted', item });
  }

  /** Text comes from deltas only: the SDK's `partial` snapshots can run ahead of what was streamed. */
  appendText(delta: string): void {
    const item = this.openTextItem(false);
    item.text += delta;
    this.emit({ kind: 'itemDelta', itemId: item.id, delta });
  }

  /** The agent's thoughts: a `reasoning` item, streamed like a message; the next message or tool completes it. */
  appendReasoning(delta: string): void {
    const item = this.openTextItem(true);
    item.text += delta;
    this.emit({ kind: 'reasoningDelta', itemId: item.id, delta });
  }

  /** The open text item of that kind, or a new one (the open item of the other kind completes first). */
  private openTextItem(reasoning: boolean): OpenItem {
    let item = this.state.item;
    if (item && !item.completed && (item.reasoning === true) === reasoning) return item;
    this.completeItem();
    const id = this.newId();
    item = reasoning ? { id, text: '', completed: false, reasoning: true } : { id, text: '', completed: false };
    this.state.item = item;
    this.emit(reasoning ? { kind: 'reasoningStarted', itemId: id } : { kind: 'itemStarted', itemId: id });
    return item;
  }

  /**
   * Completes the streamed item once. A final text that was never streamed (no `message_update` seen) still
   * reaches the client as a started-and-completed item.
   */
  completeItem(unstreamedText = ''): void {
    const item = this.state.item;
    if (item && !item.completed) {
      item.completed = true;
      this.emit({ kind: item.reasoning ? 'reasoningCompleted' : 'itemCompleted', itemId: item.id, text: item.text });
    } else if (!item && unstreamedText !== '') {
      const id = this.newId();
      this.state.item = { id, text: unstreamedText, completed: true };
      this.emit({ kind: 'itemStarted', itemId: id });
      this.emit({ kind: 'itemCompleted', itemId: id, text: unstreamedText });
    }
  }

  /** The open turn closes when its grace ends unless its run reports its end first (see `graceElapsed`). */
  startGrace(turn: OpenTurn): void {
    if (turn.closesAfterGrace) return; // one deadline per turn: the first stop or failed settle set it
    turn.closesAfterGrace = true;
    this.graceFor = turn.id;
  }

  /**
   * Rule E2's order; without an `agent_end` (settle, stop, agent_settled) there is no usage to report.
   * `runGoesOn`: the turn closes while its run has not reported its end (see `orphanRun`).
   */
  closeTurn(status: TurnStatus, error?: string, outcome?: RunOutcome, runGoesOn = false): void {
    this.cancelApprovals(APPROVAL_CANCELLED_AT_TURN_END);
    this.abandonTools();
    this.completeItem(outcome?.finalText);
    if (outcome) {
      this.state.totals = addTokens(this.state.totals, outcome.runUsage);
      this.emit({ kind: 'tokenUsage', last: outcome.lastUsage ?? ZERO_TOKENS, total: this.state.totals });
    }
    this.emit({ kind: 'turnCompleted', status, ...(error === undefined ? {} : { error: { message: error } }) });
    if (outcome) {
      const fill = contextFillOf(outcome.context, this.state.contextTokens);
      this.state.contextTokens = fill.usedTokens;
      this.emit({ kind: 'contextWindowUsage', ...fill });
    }
    this.state.unsettledPromptsOfLastTurn = this.state.turn?.promptsOutstanding ?? 0;
    this.state.turn = null;
    this.state.item = null;
    this.state.orphanRun = runGoesOn;
  }

  /**
   * A question outlives neither its turn nor, when asked outside any turn, the start of the next one: whoever
   * asked it is gone or stopped (stop, dead agent, grace, a lost run). Its answer arriving later finds it no
   * longer pending and stores nothing (approvalRules.ts), so it is resolved exactly once.
   */
  private cancelApprovals(reason: string): void {
    for (const approvalId of this.state.pendingApprovalIds) {
      this.emit({ kind: 'approvalResolved', resolution: { approvalId, decidedBy: 'cancelled', reason } });
    }
    if (this.state.pendingApprovalIds.length > 0) this.state.pendingApprovalIds = [];
  }

  /**
   * A turn never completes around a running item: a tool still open (the run was stopped before pi ended
   * it, or the run ended without its `tool_execution_end`) is completed as `failed` with its output so far.
   * A later `tool_execution_end` for it finds no turn and no open item and is ignored (toolRules).
   */
  private abandonTools(): void {
    for (const tool of this.state.tools) {
      if (tool.acp?.announced === false) this.emit({ kind: 'toolStarted', tool }); // never shown yet: shown as it ends
      this.emit({ kind: 'toolCompleted', tool, outcome: { status: 'failed', text: tool.output } });
    }
    this.state.tools = [];
  }
}

function copyTurn(turn: OpenTurn): OpenTurn {
  return {
    id: turn.id,
    origin: turn.origin,
    runActive: turn.runActive,
    retryPending: turn.retryPending,
    retryError: turn.retryError,
    promptsOutstanding: turn.promptsOutstanding,
    settled: turn.settled,
    settleError: turn.settleError,
    stopRequested: turn.stopRequested,
    closesAfterGrace: turn.closesAfterGrace,
    processEpoch: turn.processEpoch,
  };
}
