import type { ApprovalRequestedParams, ApprovalResolvedParams } from '../protocol/approvals';
import type { ShipRow } from '../protocol/shipRows';
import type { ThreadChanges } from '../protocol/threadUpdateFrame';
import type { RewindChange } from '../protocol/rewindFrames';
import {
  ZERO_TOKENS,
  type PlanStep,
  type TokenCounts,
  type TurnOrigin,
  type TurnStatus,
  type UserMessageItem,
} from '../protocol/threadEvents';

/** The assistant text item being streamed; its text is built from deltas only (never from SDK snapshots). */
export interface OpenItem {
  id: string;
  text: string;
  completed: boolean;
  /** The agent's id of the message the text belongs to (ACP `messageId`): a new id starts a new item. */
  messageId?: string;
  /** A `reasoning` item (the agent's thoughts) rather than an `agentMessage`: one text item is open at a time. */
  reasoning?: true;
}

export interface OpenTurn {
  id: string;
  origin: TurnOrigin;
  /** Between `agent_start` and the run's `agent_end`: signals that arrive now must not split the run (E5). */
  runActive: boolean;
  /** pi 1.x `agent_end {willRetry: true}`: the retried run continues this turn. */
  retryPending: boolean;
  /** The error of the run that will be retried, for the turn's status if the retry never comes. */
  retryError?: string;
  /** Client prompts attached to this turn whose `prompt/settled` has not arrived yet. */
  promptsOutstanding: number;
  /** Every attached prompt has settled: the turn closes as soon as no run is active. */
  settled: boolean;
  settleError?: string;
  /** A user stop arrived while the run was streaming: its `agent_end` closes the turn as `interrupted`. */
  stopRequested: boolean;
  /**
   * A stop, or a settle with an error, is waiting for the run's `agent_end`: when the grace ends first (a
   * `graceElapsed` input for this turn), the turn closes without it. Turns never get stuck on a dead run.
   */
  closesAfterGrace: boolean;
  /** The process whose run this turn is (`turn/started.processEpoch`); only known for a turn read back from rows. */
  processEpoch?: string;
}

/** What a tool item shows, decided at `tool_execution_start` from pi's tool name and arguments. */
export type ToolSubject =
  | { kind: 'commandExecution'; command: string }
  | { kind: 'fileChange'; tool: string; path: string }
  | { kind: 'toolCall'; tool: string; arguments: unknown };

/** A tool between `tool_execution_start` and `_end`. Immutable: an update replaces it, so facts may hold it. */
export type OpenToolItem = ToolSubject & {
  /** The item id: pi's `toolCallId`, so start, updates, end and the `toolResult` message name one item. */
  id: string;
  /** bash: the last output snapshot pi sent and pi's count of output bytes so far (see commandOutput.ts). */
  output: string;
  outputBytes: number;
  /** An ACP agent's tool call: what later updates need that the subject does not keep (acpToolRules.ts). */
  acp?: AcpToolFacts;
};

export interface AcpToolFacts {
  /** The ACP `ToolKind` the call was announced with (an update may leave it out). */
  kind: string;
  /** `item/started` was emitted: held back while an `execute` call has no command line yet (Claude sends it later). */
  announced: boolean;
  /** The latest diff an update carried, for the completed `fileChange`. */
  diff?: string;
}

/** How a tool item ended, read from `tool_execution_end` (or its output so far when its turn ended first). */
export interface ToolOutcome {
  status: 'completed' | 'failed';
  /** The text blocks of pi's result; for bash, the output pi reports (with its status line on failure). */
  text: string;
  /** pi's result unchanged, for generic `toolCall` items; absent when the tool never ended. */
  result?: unknown;
  exitCode?: number;
  diff?: string;
}

/** Everything the turn rules remember about one thread. Plain data, so it can be rebuilt from stored rows. */
export interface ThreadTurnState {
  turn: OpenTurn | null;
  item: OpenItem | null;
  /** Tools running now, in start order (pi may run several at once). */
  tools: readonly OpenToolItem[];
  /** `prompt/started` seen while no turn was open: the next `agent_start` opens a client-started turn. */
  promptsForNextTurn: number;
  /**
   * The texts of those prompts, oldest first (null where the sender named none): a prompt that settles with an
   * error before any run took it becomes a failed turn holding it (`refusePrompt`). A run that starts shows
   * its prompts itself (the user `message_end`), so an opened turn empties the list.
   */
  waitingPromptTexts: readonly (string | null)[];
  /**
   * False until this process sees a `prompt/started` for the thread. Until then a `prompt/settled` cannot be
   * matched to a prompt, so it is applied to the open turn as E5 says (older daemons, restarts).
   */
  promptStartedSeen: boolean;
  /**
   * Prompts of the last closed turn that had not settled when it closed. pi 0.73 retries a failed run after
   * its `agent_end` (`auto_retry_start`) and settles the prompt only after the retry; the retry's turn
   * inherits them, so it is client-started and its settle is matched (E5).
   */
  unsettledPromptsOfLastTurn: number;
  /**
   * The last turn was closed before its run reported its end (grace elapsed, or the run belonged to a process
   * that ended): the run may still send events. Until the next `agent_start` they are stored as thread-scoped
   * `provider/unhandled` rows, so they never reopen, extend or duplicate the closed turn and are never lost.
   */
  orphanRun: boolean;
  /**
   * Questions asked (`approval/requested`) and not answered yet, in the order asked. All belong to the open
   * turn, or are thread-scoped when none is open: a turn boundary resolves them (approvalRules.ts).
   */
  pendingApprovalIds: readonly string[];
  totals: TokenCounts;
  /**
   * The context fill last reported (`thread/contextWindowUsage/updated.usedTokens`): a run that ends without
   * a usage of its own (stopped, or failed before the model answered) adds its estimate to this, instead of
   * reporting an empty context (issue 29).
   */
  contextTokens: number;
}

export const INITIAL_TURN_STATE: ThreadTurnState = {
  turn: null,
  item: null,
  tools: [],
  promptsForNextTurn: 0,
  waitingPromptTexts: [],
  promptStartedSeen: false,
  unsettledPromptsOfLastTurn: 0,
  orphanRun: false,
  pendingApprovalIds: [],
  totals: ZERO_TOKENS,
  contextTokens: 0,
};

/** What happened, in the words of the spec; `emitEvents` turns each fact into one thread event. */
export type TurnFact = { turnId: string | null } & (
  | { kind: 'turnStarted'; origin: TurnOrigin }
  | { kind: 'userMessageStarted'; item: UserMessageItem }
  | { kind: 'userMessageCompleted'; item: UserMessageItem }
  | { kind: 'itemStarted'; itemId: string }
  | { kind: 'itemDelta'; itemId: string; delta: string }
  | { kind: 'itemCompleted'; itemId: string; text: string }
  | { kind: 'toolStarted'; tool: OpenToolItem }
  | { kind: 'toolOutputDelta'; itemId: string; delta: string }
  | { kind: 'toolCompleted'; tool: OpenToolItem; outcome: ToolOutcome }
  | { kind: 'tokenUsage'; last: TokenCounts; total: TokenCounts }
  | { kind: 'turnCompleted'; status: TurnStatus; error?: { message: string } }
  | { kind: 'contextWindowUsage'; usedTokens: number; estimated: boolean }
  | { kind: 'unhandled'; rawType: string; rawEvent: unknown }
  | { kind: 'providerError'; message: string; willRetry: boolean }
  | { kind: 'reasoningStarted'; itemId: string }
  | { kind: 'reasoningDelta'; itemId: string; delta: string }
  | { kind: 'reasoningCompleted'; itemId: string; text: string }
  | { kind: 'planUpdated'; plan: PlanStep[] }
  | { kind: 'approvalRequested'; request: ApprovalRequest }
  | { kind: 'approvalResolved'; resolution: ApprovalResolution }
  | { kind: 'threadUpdated'; changes: ThreadChanges }
  | { kind: 'rewound'; change: RewindChange }
  | { kind: 'shipRow'; row: ShipRow }
);

/** A question and its answer as rows keep them: the thread is the row's own. */
export type ApprovalRequest = Omit<ApprovalRequestedParams, 'threadId'>;
export type ApprovalResolution = Omit<ApprovalResolvedParams, 'threadId'>;
