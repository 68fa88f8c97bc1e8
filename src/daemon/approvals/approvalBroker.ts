import {
  approvalRequestedFrame,
  approvalResolvedFrame,
  type ApprovalDecision,
  type ApprovalQuestion,
  type PermissionMode,
} from '../../protocol/approvals';
import { newId } from '../../protocol/ids';
import type { ThreadApproveResult } from '../../protocol/threadCommands';
import type { AskUser } from '../providers/agentProvider';
import { policyVerdict } from './approvalPolicy';
import { recentIds } from './recentIds';

export interface ApprovalBrokerOptions {
  threadId: string;
  /** The thread's folder: `accept-edits` allows edits inside it. */
  cwd: string;
  permissionMode: PermissionMode;
  /** Default `apr_…` (src/protocol/ids.ts). */
  newApprovalId?(): string;
}

/**
 * One thread's questions: the mode's policy answers what it may, the rest wait for `answer` (the user, through
 * `thread.approve`), `cancelAll` (a stop, a dispose) or the provider's AbortSignal, whichever comes first.
 * Every question resolves the provider's promise exactly once and emits one `approval/requested` and one
 * `approval/resolved` frame, in that order, through the same `emit` as the agent's own frames.
 */
export interface ApprovalBroker {
  /** The AskUser an agent gets; its frames go through `emit`, the agent's frame stream, so order holds. */
  askUserVia(emit: (frame: unknown) => void): AskUser;
  answer(approvalId: string, optionId: string): ThreadApproveResult;
  /** Resolves every pending question `cancelled` with `reason`. */
  cancelAll(reason: string): void;
  /** Questions waiting for the user, oldest first. */
  pendingApprovalIds(): string[];
  permissionMode: PermissionMode;
}

interface Pending {
  question: ApprovalQuestion;
  settle(decision: ApprovalDecision): void;
}

export function createApprovalBroker(options: ApprovalBrokerOptions): ApprovalBroker {
  const { threadId, cwd } = options;
  const newApprovalId = options.newApprovalId ?? (() => newId('apr'));
  const pending = new Map<string, Pending>();
  const answered = recentIds();

  const ask = (emit: (frame: unknown) => void, question: ApprovalQuestion, signal?: AbortSignal): Promise<ApprovalDecision> => {
    const approvalId = newApprovalId();
    emit(approvalRequestedFrame({ threadId, approvalId, ...question, permissionMode: broker.permissionMode }));
    const verdict = policyVerdict(broker.permissionMode, question, cwd);
    const resolved = (decision: ApprovalDecision, policyReason?: string) => {
      answered.add(approvalId);
      emit(approvalResolvedFrame({ threadId, approvalId, ...resolvedParams(decision, policyReason) }));
      return decision;
    };
    if (verdict.kind === 'allow') {
      const { optionId, kind: optionKind } = verdict.option;
      return Promise.resolve(resolved({ outcome: 'selected', optionId, optionKind, decidedBy: 'policy' }, verdict.reason));
    }
    if (verdict.kind === 'refuse') return Promise.resolve(resolved(cancelled(verdict.reason)));
    return new Promise((resolve) => {
      const onAbort = () => settle(cancelled(abortReason(signal)));
      const settle = (decision: ApprovalDecision) => {
        if (!pending.delete(approvalId)) return; // answered already: exactly once
        signal?.removeEventListener('abort', onAbort);
        resolve(resolved(decision));
      };
      pending.set(approvalId, { question, settle });
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
  };

  const broker: ApprovalBroker = {
    permissionMode: options.permissionMode,
    askUserVia: (emit) => (question, signal) => ask(emit, question, signal),
    answer(approvalId, optionId) {
      const question = pending.get(approvalId);
      if (!question) return answered.has(approvalId) ? { outcome: 'already-answered' } : { outcome: 'unknown' };
      const option = question.question.options.find((offered) => offered.optionId === optionId);
      if (!option) return { outcome: 'unknown-option', optionIds: question.question.options.map((offered) => offered.optionId) };
      question.settle({ outcome: 'selected', optionId, optionKind: option.kind, decidedBy: 'user' });
      return { outcome: 'answered', optionId, optionKind: option.kind };
    },
    cancelAll(reason) {
      for (const question of [...pending.values()]) question.settle(cancelled(reason));
    },
    pendingApprovalIds: () => [...pending.keys()],
  };
  return broker;
}

/** The resolved frame's fields; the policy's reason is for the transcript, the provider only gets the decision. */
function resolvedParams(decision: ApprovalDecision, policyReason: string | undefined) {
  if (decision.outcome === 'cancelled') return { decidedBy: decision.decidedBy, reason: decision.reason };
  const { decidedBy, optionId, optionKind } = decision;
  return { decidedBy, optionId, optionKind, ...(policyReason === undefined ? {} : { reason: policyReason }) };
}

const cancelled = (reason: string): ApprovalDecision => ({ outcome: 'cancelled', decidedBy: 'cancelled', reason });

function abortReason(signal: AbortSignal | undefined): string {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error && reason.name !== 'AbortError') return reason.message;
  return typeof reason === 'string' ? reason : 'the agent withdrew the question';
}
