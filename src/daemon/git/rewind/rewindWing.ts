import type { HostHandlers } from '../../hostDispatcher';
import { finishStep } from './finishStep';
import { leftSteps } from './rewindJournal';
import type { RewindDeps } from './rewindDeps';
import { revertTurn, unrevert } from './revertTurn';
import { clearUndone, noticeText, pendingUndone } from './undoneNotice';

export type RewindHandlers = Pick<HostHandlers, 'git.revert_turn' | 'git.unrevert'>;

export const rewindCommands = {
  revert: revertTurn,
  unrevert,
};

/** At daemon start: every revert or unrevert a kill cut short is finished (docs/rewind.md "A kill"). */
export async function recoverRewinds(deps: RewindDeps): Promise<void> {
  for (const step of await leftSteps(deps.dataDir)) {
    try {
      await deps.locks.run(step.commonDir, () => finishStep(step, deps));
      deps.log(`rewind: the ${step.action} of ${step.threadId} a stop cut short was finished`);
    } catch (error) {
      deps.log(`rewind: the ${step.action} of ${step.threadId} could not be finished: ${(error as Error).message}`);
    }
  }
}

type PromptEntry = Pick<HostHandlers, 'thread.prompt'>;

/**
 * `thread.prompt` with the turns a revert undid told first: the prompt the agent receives starts with which
 * turns were undone (the fallback of issue 39 for an agent whose conversation is not rewound: all of them here),
 * then a blank line and the user's text. The notice goes once the agent took the prompt.
 */
export function withUndoneNotice<H extends PromptEntry>(handlers: H, deps: Pick<RewindDeps, 'dataDir' | 'threadLog'>): H {
  return {
    ...handlers,
    'thread.prompt': async (params) => {
      const undone = await pendingUndone(deps.dataDir, params.threadId);
      if (undone.length === 0) return handlers['thread.prompt'](params);
      const rows = await deps.threadLog.list(params.threadId);
      const answer = await handlers['thread.prompt']({ ...params, prompt: `${noticeText(undone, rows)}\n\n${params.prompt}` });
      await clearUndone(deps.dataDir, params.threadId);
      return answer;
    },
  };
}
