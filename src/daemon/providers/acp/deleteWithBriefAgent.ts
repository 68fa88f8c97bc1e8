import { withBriefAgent } from './briefAgent';
import { deleteAcpSession } from './deleteAcpSession';
import { canDeleteSessions, initializeAgent } from './initializeAgent';
import type { AcpSdk } from './loadAcpSdk';

export interface BriefAgentDelete {
  sdk: AcpSdk;
  /** The agent's name (`claude`, `codex`, …), for the log. */
  name: string;
  executable: string;
  args: readonly string[];
  /** The environment a thread's agent gets: the agent finds its home (HOME, CODEX_HOME) there. */
  env: NodeJS.ProcessEnv;
  /** The thread's folder: an agent may keep its sessions by the folder they ran in. */
  cwd: string;
  sessionId: string;
  /** Removes what the agent leaves of a deleted session (AcpAgentSpec.afterDelete). */
  afterDelete?: () => Promise<void>;
  timeoutMs: number;
  log(message: string): void;
}

/**
 * Deletes a session of an agent that is not running (closed when idle, or never started by this daemon): starts
 * it as a thread's agent would be started, `initialize`, `session/delete` when it advertises it, then closes it
 * with its whole process group. Gives up after `timeoutMs`; the agent is closed whatever happened.
 */
export async function deleteWithBriefAgent(request: BriefAgentDelete): Promise<void> {
  const { sdk } = request;
  await withBriefAgent({ ...request, what: 'delete the session' }, async (agent) => {
    const init = await initializeAgent(sdk, agent.connection);
    await deleteAcpSession({
      sdk,
      connection: agent.connection,
      sessionId: request.sessionId,
      canDelete: canDeleteSessions(init),
      who: request.name,
      log: request.log,
      ...(request.afterDelete ? { afterDelete: request.afterDelete } : {}),
    });
  });
}
