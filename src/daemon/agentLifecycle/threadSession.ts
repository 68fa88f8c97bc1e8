import { firstLineOf } from '../../protocol/errorMessages';
import { HostCommandError } from '../../protocol/hostErrors';
import { DEFAULT_PERMISSION_MODE } from '../../protocol/approvals';
import type { ThreadOpenParams } from '../../protocol/threadCommands';
import type { StoredThreadEvent } from '../../store/eventStore';
import { createApprovalBroker, type ApprovalBroker } from '../approvals/approvalBroker';
import type { AgentProvider, AgentThread } from '../providers/agentProvider';
import type { ProviderRegistry } from '../providerRegistry';
import { startThreadAgent, type AgentFrameWatch, type ThreadAgentDeps } from '../startThreadAgent';
import { agentFailureFrames } from './agentFailureFrames';
import { createAgentSlot, type AgentSlot } from './agentSlot';
import { createIdleClose, type IdleClose } from './idleClose';

/** An agent that could not start: `reason` is its own error, which the thread's rows show without our prefix. */
export class AgentStartFailed extends HostCommandError {
  constructor(
    providerId: string,
    readonly reason: string,
  ) {
    super('agent_failed', `the ${providerId} agent could not start: ${reason}`);
  }
}

/** Why a closing daemon refuses to start an agent, and the reason its open questions are cancelled with. */
export const DAEMON_CLOSING = 'the host daemon is shutting down';

/** How long an agent with nothing to do stays up by default (`ATS_AGENT_IDLE_MS`): ten minutes. */
export const DEFAULT_AGENT_IDLE_MS = 600_000;

export interface ThreadSessionDeps extends ThreadAgentDeps {
  providers: ProviderRegistry;
  /** `ATS_AGENT_IDLE_MS`: how long an agent with no open turn and no pending question stays up. */
  agentIdleMs: number;
  /** True once the daemon closes: an agent started then would outlive it. */
  closing(): boolean;
}

/** Where the session keeps the thread's providerThreadId: its record in the daemon's thread table. */
export interface SessionRecord {
  providerThreadId: string;
}

/** A thread open on this host: its parameters, its questions, and its agent when the host runs its provider. */
export interface ThreadSession {
  params: ThreadOpenParams;
  /** Undefined when this host does not run the thread's provider: the thread is fed only by the intake. */
  provider?: AgentProvider;
  /** The thread's questions and its permission mode, kept across agent restarts. */
  approvals: ApprovalBroker;
  /** Started by the first prompt (or at open for kept-running threads and turns to restore); closed when idle. */
  agent: AgentSlot;
  idle: IdleClose;
  /** Never closed for idleness (`keepAgentRunning`). */
  keepAgentRunning: boolean;
  /** Rows the agent's frames stored, told to whoever waits for them (a stop waiting for its turn's end). */
  watchRows(listener: (rows: readonly StoredThreadEvent[]) => void): () => void;
  /**
   * Starts the agent when no prompt asks for it (keep-running, a turn to restore). A failure is not thrown
   * but written to the thread's log as a `provider/error` row, once per reason until the agent starts; a
   * prompt's own start failure is that prompt's failed turn instead (the `thread.prompt` handler).
   */
  startAgent(): Promise<void>;
}

export function createThreadSession(deps: ThreadSessionDeps, params: ThreadOpenParams, record: SessionRecord): ThreadSession {
  const { threadId, cwd } = params;
  const provider = deps.providers.get(params.provider);
  const approvals = createApprovalBroker({ threadId, cwd, permissionMode: params.permissionMode ?? DEFAULT_PERMISSION_MODE });
  const listeners = new Set<(rows: readonly StoredThreadEvent[]) => void>();
  /**
   * The agent's frames handed to the ingest and not through it yet: a prompt the agent took has sent its
   * `prompt/started` before it was accepted, so from its acceptance it is either here, or in the pipeline's
   * state (an open turn, or a prompt awaiting its run), until its turn ends. No idle close in between.
   */
  let framesOnTheirWay = 0;
  const frameWatch: AgentFrameWatch = {
    sent: () => (framesOnTheirWay += 1),
    done: (rows) => {
      framesOnTheirWay -= 1;
      session.idle.touch();
      if (rows.length > 0) listeners.forEach((listener) => listener(rows));
    },
  };

  const start = async (signal: AbortSignal) => {
    if (deps.closing()) throw new HostCommandError('host_closing', DAEMON_CLOSING);
    if (!provider) throw new Error('no agent provider'); // never: callers check `provider` first
    const request = { known: record.providerThreadId, signal, watch: frameWatch };
    const opened = (started: AgentThread) => (record.providerThreadId = started.providerThreadId);
    const agent = await startThreadAgent(deps, session.params, provider, approvals, request, opened).catch((error: unknown) => {
      throw new AgentStartFailed(provider.id, firstLineOf(error));
    });
    reportedStartFailure = undefined;
    session.idle.touch();
    return agent;
  };

  /** The last start failure written to the log: the same reason is written once until the agent starts. */
  let reportedStartFailure: string | undefined;

  const agent = createAgentSlot({
    start,
    released: () => session.idle.touch(),
    log: deps.log,
  });

  const session: ThreadSession = {
    params,
    ...(provider ? { provider } : {}),
    approvals,
    agent,
    keepAgentRunning: params.keepAgentRunning ?? false,
    idle: createIdleClose({
      idleMs: deps.agentIdleMs,
      closable: () =>
        !session.keepAgentRunning && !deps.closing() && agent.state() === 'running' && agent.held() === 0 && framesOnTheirWay === 0,
      quiet: async () => {
        const [status, pending, awaitingRun] = await Promise.all([
          deps.ingest.threadStatus(threadId),
          deps.ingest.pendingApprovalIds(threadId),
          deps.ingest.promptAwaitingRun(threadId),
        ]);
        return status !== 'active' && !awaitingRun && pending.length === 0 && approvals.pendingApprovalIds().length === 0;
      },
      close: async () => {
        await agent.close();
        deps.log(`closed the idle agent of thread ${threadId}`);
      },
      log: deps.log,
    }),
    watchRows(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async startAgent() {
      await agent.acquire().then(
        () => undefined,
        async (error: unknown) => {
          deps.log(`thread ${threadId}: ${firstLineOf(error)}`);
          if (!(error instanceof AgentStartFailed) || !provider || reportedStartFailure === error.reason) return;
          reportedStartFailure = error.reason;
          for (const frame of agentFailureFrames(provider.id, threadId, error.reason)) await deps.ingest.ingest(frame, threadId);
        },
      );
    },
  };
  return session;
}
