import type { AskUser } from '../../../src/daemon/providers/agentProvider';
import type { ApprovalDecision, ApprovalOptionKind, ApprovalQuestion } from '../../../src/protocol/approvals';

/** One question a provider asked, held open until the test answers it. */
export interface AskedQuestion {
  question: ApprovalQuestion;
  signal: AbortSignal | undefined;
  /** Resolves once the asker's signal aborted (never, if it does not). */
  aborted: Promise<void>;
  /** Answers as the user would, with the option of this kind. */
  choose(kind: ApprovalOptionKind): void;
}

/** An `AskUser` that records every question and lets the test answer each one in turn. */
export interface AskRecorder {
  askUser: AskUser;
  readonly questions: AskedQuestion[];
  /** Resolves with the `index`th question (0-based), already asked or still to come. */
  question(index: number): Promise<AskedQuestion>;
}

export function createAskRecorder(): AskRecorder {
  const questions: AskedQuestion[] = [];
  let waiters: Array<{ index: number; resolve(asked: AskedQuestion): void }> = [];
  const askUser: AskUser = (question, signal) =>
    new Promise<ApprovalDecision>((resolve) => {
      const asked: AskedQuestion = {
        question,
        signal,
        aborted: new Promise((onAbort) => {
          if (signal?.aborted) onAbort();
          signal?.addEventListener('abort', () => onAbort(), { once: true });
        }),
        choose(kind) {
          const option = question.options.find((candidate) => candidate.kind === kind);
          if (!option) throw new Error(`no option of kind ${kind} in ${JSON.stringify(question.options)}`);
          resolve({ outcome: 'selected', optionId: option.optionId, optionKind: kind, decidedBy: 'user' });
        },
      };
      signal?.addEventListener('abort', () => resolve({ outcome: 'cancelled', decidedBy: 'cancelled', reason: 'aborted' }), { once: true });
      questions.push(asked);
      const ready = waiters.filter((waiter) => waiter.index === questions.length - 1);
      waiters = waiters.filter((waiter) => !ready.includes(waiter));
      ready.forEach((waiter) => waiter.resolve(asked));
    });
  return {
    askUser,
    questions,
    question: (index) =>
      index < questions.length ? Promise.resolve(questions[index]!) : new Promise((resolve) => waiters.push({ index, resolve })),
  };
}
