import type { HostHandlers } from '../../hostDispatcher';
import type { TurnRecorder } from './turnRecorder';

type ThreadEntry = Pick<HostHandlers, 'thread.open' | 'thread.prompt'>;

/**
 * The thread commands with turn recording around them: an opened thread's folder is remembered, and a
 * prompt waits for its turn's start tree before it reaches the agent, so the turn's diff starts exactly
 * where the agent did. The handlers themselves are unchanged.
 */
export function withTurnTrees<H extends ThreadEntry>(handlers: H, turns: TurnRecorder): H {
  return {
    ...handlers,
    'thread.open': async (params) => {
      const answer = await handlers['thread.open'](params);
      turns.opened(params.threadId, params.cwd);
      return answer;
    },
    'thread.prompt': async (params) => {
      await turns.beforePrompt(params.threadId);
      return handlers['thread.prompt'](params);
    },
  };
}
