import type { SessionModeState } from '@agentclientprotocol/sdk';
import type { PermissionMode } from '../../../protocol/approvals';
import type { AcpThreadOptions } from './acpThreadOptions';
import { applyAgentMode } from './agentModes';
import { deleteAcpSession, withinDeleteTimeout } from './deleteAcpSession';
import type { AcpAgentProcess } from './spawnAcpAgent';

/** The thread's agent and session as they are now (none while the agent is stopped or starting again). */
export interface LiveAcpSession {
  agent: AcpAgentProcess | undefined;
  sessionId: string | undefined;
  modes: SessionModeState | null | undefined;
  canDelete: boolean;
}

/**
 * What a thread asks of its running agent's session besides prompts: a cancel, a mode switch (a stopped agent takes
 * the thread's mode when it starts again) and a delete before the close (AgentThread.deleteSession).
 */
export function acpSessionOps(options: AcpThreadOptions, live: () => LiveAcpSession) {
  const who = `${options.name} thread ${options.threadId}`;
  return {
    /** `session/cancel` of the running prompt; an agent that no longer answers is not waited for. */
    async cancel(): Promise<void> {
      const { agent, sessionId } = live();
      if (!agent || !sessionId) return;
      await agent.connection.agent
        .notify(options.sdk.methods.agent.session.cancel, { sessionId })
        .catch((error: unknown) => options.log(`${who}: session/cancel failed: ${String(error)}`));
    },
    async setAgentMode(mode: PermissionMode): Promise<void> {
      const { agent, sessionId, modes } = live();
      if (!agent || !sessionId) return;
      await applyAgentMode(options.sdk, agent.connection, { sessionId, modes }, mode, (message) => options.log(`${who}: ${message}`));
    },
    async deleteSession(): Promise<boolean> {
      const { agent, sessionId, canDelete } = live();
      if (!agent || !sessionId || options.hostRemovesSession) return false;
      await withinDeleteTimeout(
        deleteAcpSession({
          sdk: options.sdk,
          connection: agent.connection,
          sessionId,
          canDelete,
          who,
          log: options.log,
          ...(options.afterDelete ? { afterDelete: () => options.afterDelete!(sessionId) } : {}),
        }),
        options.deleteTimeoutMs,
      );
      return true;
    },
  };
}

/** How long a failed prompt waits for the agent's exit, so the error can say how it ended. */
const EXIT_REASON_WAIT_MS = 500;

/** A prompt with no answer on the wire: the agent died or the connection closed. Says how the process ended. */
export async function promptFailure(name: string, running: AcpAgentProcess, error: unknown): Promise<{ message: string }> {
  let timer: NodeJS.Timeout | undefined;
  const how = await Promise.race([
    running.exited,
    new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), EXIT_REASON_WAIT_MS))),
  ]);
  clearTimeout(timer);
  const stderr = running.stderrTail().split('\n').at(-1);
  return { message: how ? `the ${name} agent exited (${how})${stderr ? `: ${stderr}` : ''}` : String(error) };
}
