import path from 'node:path';
import type { ThreadIngest } from '../ingest/threadIngest';
import type { ApprovalBroker } from './approvals/approvalBroker';
import { holdFramesUntilOpen } from './holdFramesUntilOpen';
import type { AgentProvider, AgentThread } from './providers/agentProvider';
import type { ThreadOpenParams } from '../protocol/threadCommands';
import type { StoredThreadEvent } from '../store/eventStore';

export interface ThreadAgentDeps {
  ingest: ThreadIngest;
  /** Providers keep their sessions under `<dataDir>/providers/<id>`. */
  dataDir: string;
  /** `ATS_AGENT_START_TIMEOUT_MS`: how long an agent's start may take (the provider's default when unset). */
  agentStartTimeoutMs?: number;
  /** The ingest's turn grace: how long a stopped run may go on before its agent is ended. */
  turnGraceMs?: number;
  log(message: string): void;
}

/** What the thread learns of its agent's frames on their way into the pipeline. */
export interface AgentFrameWatch {
  /** A frame is handed to the ingest: until its `done`, the agent is busy even if no row says so yet. */
  sent(): void;
  /** Its outcome: the rows it stored (none when it was rejected or failed). */
  done(rows: readonly StoredThreadEvent[]): void;
}

/** The thread's part of one agent start: its session so far, and how a start under way is cut short. */
export interface AgentStartRequest {
  /** The thread's providerThreadId before this start: its own id names no session to resume. */
  known: string | undefined;
  signal: AbortSignal;
  /** Every frame sent and its outcome: the idle count waits for them, and a stop waits for its turn's end. */
  watch: AgentFrameWatch;
}

/**
 * Starts one thread's agent (its extensions load and may start a run at once). Frames the agent emits before its
 * session is known are held until then, so the ingest names the agent's session in every row, including rows
 * of a run that began while the session was opening. The agent asks its questions through `approvals`, whose
 * frames join the agent's own in one stream, so a question's rows sit between the tool call's rows in the order
 * the agent produced them. `opened` records the session before the held frames are let go.
 */
export async function startThreadAgent(
  deps: ThreadAgentDeps,
  params: ThreadOpenParams,
  provider: AgentProvider,
  approvals: ApprovalBroker,
  request: AgentStartRequest,
  opened: (agent: AgentThread) => void,
): Promise<AgentThread> {
  const { threadId } = params;
  const { watch } = request;
  // Agent frames are fire-and-forget for the agent; a rejected frame is logged, never thrown into the SDK.
  const frames = holdFramesUntilOpen((frame) => {
    watch.sent();
    deps.ingest.ingest(frame).then(
      (outcome) => {
        if (!outcome.ok) deps.log(`agent frame rejected for ${threadId}: ${outcome.error.message}`);
        watch.done(outcome.ok ? outcome.rows : []);
      },
      (error: unknown) => {
        deps.log(`agent frame failed for ${threadId}: ${String(error)}`);
        watch.done([]);
      },
    );
  });
  try {
    const agent = await provider.openThread({
      threadId,
      cwd: params.cwd,
      model: params.model,
      permissionMode: approvals.permissionMode,
      askUser: approvals.askUserVia(frames.emit),
      dataDir: path.join(deps.dataDir, 'providers', provider.id),
      resumeProviderThreadId: request.known === threadId ? undefined : request.known,
      emit: frames.emit,
      signal: request.signal,
      ...(deps.agentStartTimeoutMs === undefined ? {} : { startTimeoutMs: deps.agentStartTimeoutMs }),
      ...(deps.turnGraceMs === undefined ? {} : { stopGraceMs: deps.turnGraceMs }),
    });
    if (!request.signal.aborted) opened(agent);
    return agent;
  } finally {
    frames.release();
  }
}
