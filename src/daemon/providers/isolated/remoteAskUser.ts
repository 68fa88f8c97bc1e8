import type { ApprovalDecision } from '../../../protocol/approvals';
import type { AskUser } from '../agentProvider';
import type { AgentReport } from './agentProcessMessages';

/** The agent process's side of approvals: an `AskUser` whose answers come from the daemon. */
export interface RemoteAskUser {
  askUser: AskUser;
  /** The daemon's decision on question `questionId`; one nobody waits for any more is dropped. */
  answer(questionId: number, decision: ApprovalDecision): void;
  /** Every open question ends `cancelled`: the agent is shutting down and nobody will answer. */
  cancelAll(reason: string): void;
}

/**
 * Sends each question to the daemon as an `ask` report and waits for its `answer`. A question whose signal
 * aborts (the agent's run was stopped) ends at once and the daemon hears `askAborted`, so the user's card closes.
 */
export function createRemoteAskUser(report: (message: AgentReport) => void): RemoteAskUser {
  const open = new Map<number, (decision: ApprovalDecision) => void>();
  let nextQuestionId = 1;

  const askUser: AskUser = (question, signal) =>
    new Promise<ApprovalDecision>((resolve) => {
      const questionId = nextQuestionId++;
      const onAbort = () => {
        if (!open.delete(questionId)) return;
        report({ type: 'askAborted', questionId });
        resolve({ outcome: 'cancelled', decidedBy: 'cancelled', reason: 'the run was stopped' });
      };
      open.set(questionId, (decision) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(decision);
      });
      report({ type: 'ask', questionId, question });
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });

  const answer = (questionId: number, decision: ApprovalDecision) => {
    const resolve = open.get(questionId);
    open.delete(questionId);
    resolve?.(decision);
  };

  return {
    askUser,
    answer,
    cancelAll: (reason) => [...open.keys()].forEach((id) => answer(id, { outcome: 'cancelled', decidedBy: 'cancelled', reason })),
  };
}
