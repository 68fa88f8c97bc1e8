import type { AcpThreadOptions } from './acpThreadOptions';
import { openAcpSession } from './openAcpSession';
import { answerByPolicy } from './permissionPolicy';
import { spawnAcpAgent, type AcpAgentProcess } from './spawnAcpAgent';

export interface AgentSessionHooks {
  /** Each `session/update`'s `update`, in wire order. */
  update(update: Record<string, unknown>): void;
  /** The prompt's answer, after every update that came before it. */
  promptAnswered(answer: { stopReason?: string; usage?: unknown; error?: unknown }): void;
  /** On while `session/load` replays history. */
  replaying(on: boolean): void;
  exited(agent: AcpAgentProcess, how: string): void;
}

/**
 * Starts the thread's agent process and its session (resumed when `sessionId` names one). A failure closes the
 * process and rejects with what to do (`explainStartFailure`); permission requests are answered by policy.
 */
export async function startAgentSession(
  options: AcpThreadOptions,
  sessionId: string | undefined,
  hooks: AgentSessionHooks,
): Promise<{ agent: AcpAgentProcess; sessionId: string }> {
  const { name, threadId, log } = options;
  const agent = spawnAcpAgent({
    sdk: options.sdk,
    executable: options.executable,
    args: options.args,
    cwd: options.cwd,
    env: options.env,
    update(params) {
      const update = (params as { update?: unknown } | undefined)?.update;
      if (typeof update === 'object' && update !== null) hooks.update(update as Record<string, unknown>);
    },
    promptAnswered({ result, error }) {
      const answer = result as { stopReason?: string; usage?: unknown } | undefined;
      hooks.promptAnswered(error === undefined ? { stopReason: answer?.stopReason, usage: answer?.usage ?? undefined } : { error });
    },
    async requestPermission(request) {
      const { response, reason } = answerByPolicy(request);
      log(`${name} thread ${threadId}: ${reason}`);
      return response;
    },
  });
  void agent.exited.then((how) => hooks.exited(agent, how));
  try {
    const opened = await openAcpSession(options.sdk, agent.connection, {
      cwd: options.cwd,
      resumeSessionId: sessionId,
      modelId: options.modelId,
      replaying: hooks.replaying,
      log: (message) => log(`${name} thread ${threadId}: ${message}`),
    });
    return { agent, sessionId: opened };
  } catch (error) {
    const stderr = agent.stderrTail();
    await agent.close(1_000);
    throw options.explainStartFailure(error, stderr);
  }
}
