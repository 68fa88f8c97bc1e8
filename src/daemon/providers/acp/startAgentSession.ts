import type { PermissionMode } from '../../../protocol/approvals';
import type { AcpThreadOptions } from './acpThreadOptions';
import { applyAgentMode } from './agentModes';
import { askPermission } from './askPermission';
import { openAcpSession, type OpenedAcpSession } from './openAcpSession';
import { promptUsageOf } from './promptUsage';
import { spawnAcpAgent, type AcpAgentProcess } from './spawnAcpAgent';
import { startClock } from './startClock';

export interface AgentSessionHooks {
  /** Each `session/update`'s `update`, in wire order. */
  update(update: Record<string, unknown>): void;
  /** The prompt's answer, after every update that came before it. */
  promptAnswered(answer: { stopReason?: string; usage?: unknown; error?: unknown }): void;
  /** On while `session/load` replays history. */
  replaying(on: boolean): void;
  /** The process is gone or going (exited, closed, or its connection died): it takes no more prompts. */
  lost(agent: AcpAgentProcess, why: string): void;
  /** The thread's mode now, set on the session once it is open. */
  permissionMode(): PermissionMode;
  /** Aborts when questions asked now stop mattering besides the agent's exit: a stop or the thread's close. */
  questionSignal(): AbortSignal;
}

export interface StartedAgentSession extends OpenedAcpSession {
  agent: AcpAgentProcess;
}

/**
 * Starts the thread's agent process and its session (resumed when `sessionId` names one) in the thread's mode.
 * A failure closes the process and rejects with what to do (`explainStartFailure`). So does a start that takes
 * longer than `options.startTimeoutMs` (the wait `beforeLoad` imposes not counted) or that `cut` aborts (a stop,
 * a delete, the thread's close): the process is killed at once, and the rejection says why. Permission requests
 * go to the daemon (`askUser`), which answers by the mode's policy or waits for the user.
 */
export async function startAgentSession(
  options: AcpThreadOptions,
  sessionId: string | undefined,
  hooks: AgentSessionHooks,
  cut?: AbortSignal,
): Promise<StartedAgentSession> {
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
      const answer = result as { stopReason?: string } | undefined;
      hooks.promptAnswered(error === undefined ? { stopReason: answer?.stopReason, usage: promptUsageOf(answer) } : { error });
    },
    async requestPermission(request, gone) {
      const signal = AbortSignal.any([gone, hooks.questionSignal()]);
      const response = await askPermission(request, { askUser: options.askUser, signal, cwd: options.cwd });
      if (!options.askUser) log(`${name} thread ${threadId}: refused ${request.toolCall.title ?? 'a tool call'}: nobody to ask`);
      return response;
    },
  });
  agent.gone.addEventListener('abort', () => hooks.lost(agent, String((agent.gone.reason as Error | undefined)?.message)), { once: true });
  const say = (message: string) => log(`${name} thread ${threadId}: ${message}`);
  const clock = startClock(options.startTimeoutMs, cut);
  try {
    const opened = await clock.within(
      openAcpSession(options.sdk, agent.connection, {
        cwd: options.cwd,
        resumeSessionId: sessionId,
        modelId: options.modelId,
        replaying: hooks.replaying,
        meta: options.sessionMeta?.(hooks.permissionMode()),
        ...(options.beforeLoad ? { beforeLoad: (id: string) => clock.paused(options.beforeLoad!(id)) } : {}),
        log: say,
      }).then(async (session) => {
        await applyAgentMode(options.sdk, agent.connection, session, hooks.permissionMode(), say);
        return session;
      }),
    );
    if (opened.models.length > 0) options.modelsReported?.(opened.models);
    options.forkOffered?.(opened.canFork);
    return { ...opened, agent };
  } catch (error) {
    const stderr = agent.stderrTail();
    // Cut short or out of time: the agent is not waited for (it answers nothing); else it gets a second to exit.
    await agent.close(clock.over() ? 0 : 1_000);
    throw clock.over() ? error : options.explainStartFailure(error, stderr);
  } finally {
    clock.stop();
  }
}
