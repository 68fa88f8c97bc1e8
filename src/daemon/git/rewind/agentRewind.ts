import path from 'node:path';
import type { ThreadTable } from '../../agentLifecycle/threadTable';

/**
 * The agent's own conversation moved with a revert, where its provider can (`AgentProvider.rewindSession`:
 * pi's session tree): the thread's agent is closed, its session branched back to a checkpoint with a summary,
 * and the next prompt resumes from there. Answers the session's point before (for the unrevert), or undefined
 * when the conversation was not moved (no such provider, the thread not open here, an unknown checkpoint): the
 * agent is then told in the next prompt instead.
 */
export interface AgentRewind {
  rewind(threadId: string, checkpointId: string | null, summary: string): Promise<string | null | undefined>;
}

export const NO_AGENT_REWIND: AgentRewind = { rewind: async () => undefined };

export function createAgentRewind(deps: {
  table: ThreadTable;
  dataDir: string;
  closeAgent(threadId: string): Promise<unknown>;
  log(message: string): void;
}): AgentRewind {
  return {
    async rewind(threadId, checkpointId, summary) {
      const session = deps.table.session(threadId);
      const provider = session?.provider;
      const providerThreadId = deps.table.record(threadId)?.providerThreadId;
      // A thread whose agent never started has no session of its own yet (its id stands in).
      if (!session || !provider?.rewindSession || !providerThreadId || providerThreadId === threadId) return undefined;
      try {
        await deps.closeAgent(threadId);
        return await provider.rewindSession({
          providerThreadId,
          dataDir: path.join(deps.dataDir, 'providers', provider.id),
          cwd: session.params.cwd,
          checkpointId,
          summary,
        });
      } catch (error) {
        deps.log(`rewind: the ${provider.id} session of ${threadId} was not moved, the agent will be told: ${String(error)}`);
        return undefined;
      }
    },
  };
}
