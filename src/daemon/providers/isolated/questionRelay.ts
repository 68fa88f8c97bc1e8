import type { ApprovalDecision, ApprovalQuestion } from '../../../protocol/approvals';
import type { AskUser } from '../agentProvider';

/** The daemon's side of an agent process's questions: each goes to the thread's real `AskUser`. */
export interface QuestionRelay {
  ask(questionId: number, question: ApprovalQuestion): void;
  /** The agent stopped waiting (its run was stopped): the question is cancelled for the user too. */
  abort(questionId: number): void;
  /** The agent process is gone: every open question's signal aborts, so the daemon resolves them `cancelled`. */
  abortAll(): void;
}

export function createQuestionRelay(askUser: AskUser, answer: (questionId: number, decision: ApprovalDecision) => void): QuestionRelay {
  const open = new Map<number, AbortController>();

  const abort = (questionId: number) => {
    open.get(questionId)?.abort();
    open.delete(questionId);
  };

  return {
    ask(questionId, question) {
      const controller = new AbortController();
      open.set(questionId, controller);
      // AskUser never rejects by contract; a broken one must still not leave the agent's tool call hanging.
      askUser(question, controller.signal)
        .catch((error: unknown): ApprovalDecision => ({ outcome: 'cancelled', decidedBy: 'cancelled', reason: String(error) }))
        .then((decision) => {
          if (open.get(questionId) !== controller) return; // aborted: nobody waits for it any more
          open.delete(questionId);
          answer(questionId, decision);
        });
    },
    abort,
    abortAll: () => [...open.keys()].forEach(abort),
  };
}
