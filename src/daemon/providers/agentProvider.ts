import type { ApprovalDecision, ApprovalQuestion, PermissionMode } from '../../protocol/approvals';
import type { AgentModel } from '../../protocol/hostModelCommands';

/**
 * Asks whether a tool call may run. The daemon answers by the thread's permission mode (policy) or waits for
 * the user (`POST /threads/:id/approvals/:approvalId`), and stores the question and its answer as rows. Never
 * rejects: a stop, a dispose or `signal` (abort it when the agent died) resolves it `cancelled`.
 */
export type AskUser = (question: ApprovalQuestion, signal?: AbortSignal) => Promise<ApprovalDecision>;

/**
 * How long an agent's start may take by default (`ATS_AGENT_START_TIMEOUT_MS`): the real agents' starts measured
 * 0.8–4.2 s at load average 4–5 and up to 13 s at 9–13 (docs/agents.md, docs/speed.md), so a minute is over four
 * times the slowest measured start and still ends a start that will never answer well before anyone gives up on it.
 */
export const DEFAULT_AGENT_START_TIMEOUT_MS = 60_000;

/**
 * The boundary between the host daemon and one kind of coding agent. A second agent is one new folder under
 * `src/daemon/providers/` implementing this interface; nothing else in the daemon knows which agent runs.
 */
export interface AgentProvider {
  /** The agent SDK id, e.g. `pi`; also the prefix of its `<id>/prompt/settled` signal. */
  readonly id: string;
  /**
   * Starts a thread's agent: when a prompt needs it (its first, or the first after an idle close), and at
   * the host's hello for threads kept running (their extensions run without a prompt) or with a turn to
   * restore. Frames it emits before resolving are held by the daemon until it knows the `providerThreadId`.
   */
  openThread(options: OpenThreadOptions): Promise<AgentThread>;
  /**
   * Optional: the models this agent can run on this host (`host.list_models`), read fresh on every call so a
   * model added to the agent's configuration shows up without a restart. Rejects when the catalog is unreadable.
   */
  listModels?(): Promise<AgentModel[]>;
  /**
   * Optional: removes what the agent keeps of a session on this host (`thread.delete`, once the thread's agent
   * is closed), given the thread's `providerThreadId`, the `dataDir` its threads were opened with and the
   * thread's folder when the daemon knows it. Resolves when nothing is left (also when nothing was there).
   * Without it a deleted thread's session stays where the agent keeps it.
   */
  deleteSession?(providerThreadId: string, dataDir: string, cwd?: string): Promise<void>;
  /**
   * Optional: a new session of the agent's own that continues the given one from the end of a turn without
   * changing it (issue 39's fork; pi: its session tree; an ACP agent: `session/fork`). Answers the new session's
   * id, which the fork's thread then resumes; null when this agent cannot fork there. Rejects when it failed.
   * Either way the server then falls back to a fresh session told the earlier conversation (docs/fork.md).
   */
  forkSession?(request: ForkSessionRequest): Promise<string | null>;
  /**
   * Optional: moves a closed session's conversation back to `checkpointId` (a `turn/completed.providerCheckpointId`
   * of this agent; null: the conversation's start), leaving `summary` where the undone part was, so the next
   * prompt continues from there (issue 39's revert). Resolves with the point it was at before, to move back to
   * on an unrevert. Rejects when the session or the checkpoint is unknown; the daemon then tells the agent instead.
   */
  rewindSession?(options: RewindSessionOptions): Promise<string | null>;
}

export interface ForkSessionRequest {
  /** The source's session. */
  providerThreadId: string;
  /** The turn's `providerCheckpointId` when it is the agent's own (pi: a session entry; ACP: a message id), else null. */
  checkpointId: string | null;
  /** Nothing of the session comes after that turn: a fork of the whole session is a fork at its end. */
  atSessionEnd: boolean;
  /** As for `deleteSession`: where this provider's sessions are kept. */
  dataDir: string;
  /** A folder for the agent's own records (the source's). */
  cwd: string;
}

export interface RewindSessionOptions {
  providerThreadId: string;
  /** As for `deleteSession`: where this provider's sessions are kept. */
  dataDir: string;
  cwd: string;
  checkpointId: string | null;
  summary: string;
}

export interface OpenThreadOptions {
  threadId: string;
  /** The environment folder the agent works in. */
  cwd: string;
  /** `provider/modelId`. */
  model: string;
  /** The thread's mode at open; `setPermissionMode` changes it later. Absent means `accept-edits`. */
  permissionMode?: PermissionMode;
  /**
   * How the agent asks its user; the mode's policy is applied by the daemon, not by the provider. The daemon
   * always passes it; tests that drive a provider alone may leave it out, and then every question is refused.
   */
  askUser?: AskUser;
  /** Where the daemon keeps this provider's sessions, so a thread resumes after a restart. */
  dataDir: string;
  /** Id of a session to resume (the thread's providerThreadId), when the thread ran before. */
  resumeProviderThreadId?: string;
  /**
   * Every SDK event as an unchanged JSON-RPC `sdk/message` envelope, and the `<id>/prompt/settled`
   * signal, go here; the daemon feeds them to the thread-event pipeline.
   */
  emit(frame: unknown): void;
  /**
   * Aborts a start still under way (a stop, a delete, the daemon's close): the provider ends what it started and
   * rejects with the signal's reason. A provider that cannot may finish the start; the daemon then disposes it.
   */
  signal?: AbortSignal;
  /** How long the agent's start may take before it is a failed start (DEFAULT_AGENT_START_TIMEOUT_MS). */
  startTimeoutMs?: number;
  /**
   * How long a stopped run may go on before the provider ends the agent that runs it (the daemon's turn grace):
   * the thread's next prompt then starts a fresh one. An agent deaf to a stop never holds the thread (issue 37).
   */
  stopGraceMs?: number;
}

export interface AgentThread {
  readonly providerThreadId: string;
  /** Starts a client turn, or queues the prompt as a follow-up while a turn runs. Resolves once accepted. */
  prompt(text: string): Promise<void>;
  /** Aborts the running turn, if any. */
  stop(): Promise<void>;
  dispose(): Promise<void>;
  /**
   * Optional: the agent's own name for the conversation's current point (pi: the session's leaf entry id; an ACP
   * agent: the id of the last message its last prompt streamed), for `turn/completed.providerCheckpointId`; read
   * it after the run's end (pi's `agent_end`, ACP's prompt answer).
   */
  checkpointId?(): string | undefined;
  /**
   * Optional: the thread's mode changed while idle. A provider whose agent has modes of its own switches the
   * agent's to match (Claude Code `default`/`acceptEdits`/`auto`); the daemon's policy follows in any case.
   */
  setPermissionMode?(mode: PermissionMode): Promise<void>;
  /** Optional: the model's context window in tokens, from the agent's model catalog. */
  contextWindow?(): number | undefined;
  /**
   * Optional: a thread delete, after its turn was stopped and before the dispose, asks the running agent to
   * delete its own session (an ACP agent's `session/delete`). Resolves `false` when no agent runs now: the
   * provider's `deleteSession` then removes it after the dispose. Rejects when the agent failed or gave no
   * answer in time; the session is not asked for again.
   */
  deleteSession?(): Promise<boolean>;
}
