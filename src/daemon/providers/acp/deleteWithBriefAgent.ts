import { deleteAcpSession, withinDeleteTimeout } from './deleteAcpSession';
import { canDeleteSessions, initializeAgent } from './initializeAgent';
import type { AcpSdk } from './loadAcpSdk';
import { spawnAcpAgent } from './spawnAcpAgent';

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
  const agent = spawnAcpAgent({
    sdk,
    executable: request.executable,
    args: request.args,
    cwd: request.cwd,
    env: request.env,
    update: () => undefined,
    promptAnswered: () => undefined,
    // Nothing runs in this session: a question would be no tool call of the user's.
    requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }),
  });
  const deleting = (async () => {
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
  })();
  try {
    await withinDeleteTimeout(deleting, request.timeoutMs);
  } catch (error) {
    const stderr = agent.stderrTail().split('\n').at(-1);
    throw new Error(`${error instanceof Error ? error.message : String(error)}${stderr ? ` (the agent said: ${stderr})` : ''}`);
  } finally {
    await agent.close(1_000);
  }
}
