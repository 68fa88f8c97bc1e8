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
  /**
   * threadId → providerThreadId, shared with the ingest (its `providerThreadIdFor`). Filled when a thread
   * opens or its agent starts, and from the server's hint on `thread.ingest` for threads not opened here.
   */
  providerThreadIds: Map<string, string>;
  /** threadId → its running agent, shared with the ingest (context window, checkpoint). */
  agents: Map<string, AgentThread>;
  /** threadId → the id of the provider running it, shared with the ingest (named in provider/unhandled rows). */
  providerIds?: Map<string, string>;
  log(message: string): void;
}

/** What the thread learns of its agent's frames on their way into the pipeline. */
export interface AgentFrameWatch {
  /** A frame is handed to the ingest: until its `done`, the agent is busy even if no row says so yet. */
  sent(): void;
  /** Its outcome: the rows it stored (none when it was rejected or failed). */
  done(rows: readonly StoredThreadEvent[]): void;
}

/**
 * Starts one thread's agent (its extensions load and may start a run at once) and records it, so the ingest
 * names the agent's session in every row, including rows of a run that began while the session was opening.
 * The agent asks its questions through `approvals`, whose frames join the agent's own in one stream, so a
 * question's rows sit between the tool call's rows in the order the agent produced them.
 */
export async function startThreadAgent(
  deps: ThreadAgentDeps,
  params: ThreadOpenParams,
  provider: AgentProvider,
  approvals: ApprovalBroker,
  /** Every frame sent and its outcome: the idle count waits for them, and a stop waits for its turn's end. */
  watch: AgentFrameWatch = { sent: () => undefined, done: () => undefined },
): Promise<AgentThread> {
  const { threadId } = params;
  const known = deps.providerThreadIds.get(threadId);
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
      // An intake-only thread's providerThreadId is its own id: that names no session to resume.
      resumeProviderThreadId: known === threadId ? undefined : known,
      emit: frames.emit,
    });
    deps.providerThreadIds.set(threadId, agent.providerThreadId);
    deps.agents.set(threadId, agent);
    deps.providerIds?.set(threadId, provider.id);
    return agent;
  } finally {
    frames.release();
  }
}
