import { firstLineOf } from '../protocol/errorMessages';
import type { HostHandlers } from './hostDispatcher';
import { HostCommandError } from '../protocol/hostErrors';
import { agentFailureFrames } from './agentLifecycle/agentFailureFrames';
import { AgentStartFailed } from './agentLifecycle/threadSession';
import type { ThreadContext } from './threadContext';

/**
 * `thread.prompt`: hands the prompt to the thread's agent, started now when it is not running. The provider
 * brackets the prompt with `<id>/prompt/started` and `…/settled` itself (E5); a start that fails (or a stop, a
 * delete cut short) is the prompt's failed turn instead, stored before the refusal is answered (issue 29).
 */
export function promptHandler(context: ThreadContext): HostHandlers['thread.prompt'] {
  const { deps, table } = context;
  return async ({ threadId, prompt, answerWithinMs }) => {
    const session = context.sessionOf(threadId);
    const provider = session.provider;
    if (!provider) {
      throw new HostCommandError(
        'no_agent_provider',
        `this host has no agent provider "${session.params.provider}"; post events through the intake instead`,
      );
    }
    const stopped = session.agent.state() !== 'running';
    // Held from the start (or the wait for an idle close to finish) until the prompt is accepted, so no
    // idle close takes the agent away in between.
    const handOver = session.agent
      .hold(async (agent) => {
        const followUp = (await deps.ingest.threadStatus(threadId)) === 'active';
        await agent.prompt(prompt).catch((error: unknown) => {
          throw new HostCommandError('agent_failed', `the ${provider.id} agent refused the prompt: ${firstLineOf(error)}`);
        });
        return { followUp, providerThreadId: agent.providerThreadId };
      })
      .catch(async (error: unknown) => {
        // A thread deleted meanwhile has no log left to write to.
        if (error instanceof AgentStartFailed && table.session(threadId) === session) {
          for (const frame of agentFailureFrames(provider.id, threadId, error.reason, prompt)) await deps.ingest.ingest(frame, threadId);
        }
        throw error;
      });
    if (!stopped || answerWithinMs === undefined) return handOver;
    // An agent's start may outlast the server's command timeout (Gemini CLI: 2.5–13 s): past `answerWithinMs`
    // the prompt is answered as taken and goes on; a start that fails then is its failed turn (stored above).
    const early = await answerBy(handOver, answerWithinMs);
    if (early !== undefined) return early;
    void handOver.catch((error: unknown) => deps.log(`thread ${threadId}: ${firstLineOf(error)}`));
    const followUp = (await deps.ingest.threadStatus(threadId)) === 'active';
    return { followUp, providerThreadId: table.lookups.providerThreadIdFor(threadId), starting: true };
  };
}

/** `work`'s outcome when it settles within `ms` (its rejection rethrown), else undefined; it goes on either way. */
async function answerBy<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(resolve, ms, undefined)));
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
