import { defer, map, type Observable, type OperatorFunction } from 'rxjs';
import { JSON_RPC_ERROR, jsonRpcError } from '../protocol/jsonRpc';
import { errorStep, okStep, type Step, type ThreadFacts } from './stageValues';
import type { RuleInput } from '../turns/ruleInput';
import { reduceTurn } from '../turns/turnRules';
import { INITIAL_TURN_STATE, type ThreadTurnState, type TurnFact } from '../turns/turnState';

export interface ScanTurnStateDeps {
  newId(): string;
}

/**
 * Applies the turn rules per thread; many threads interleave in one stream and never share state.
 * A rejected frame passes through untouched; a rule that throws rejects only its own frame. A `restored`
 * input (the ingest's store read) replaces the thread's state before the rules see it, so it is kept even
 * when the restore rule throws.
 *
 * ```
 * in:  --s1--s2--x--e1--|   s: agent_start (threads 1, 2)   x: rejected frame   e1: agent_end (thread 1)
 * out: --S1--S2--x--E1--|   S: [turnStarted] open           E1: [tokenUsage, turnCompleted, …] closed
 * ```
 */
export function scanTurnState(deps: ScanTurnStateDeps): OperatorFunction<Step<RuleInput>, Step<ThreadFacts>> {
  return (source: Observable<Step<RuleInput>>) =>
    defer(() => {
      const states = new Map<string, ThreadTurnState>();
      return source.pipe(
        map((step): Step<ThreadFacts> => {
          if (!step.ok) return step;
          const input = step.value;
          const { threadId } = input;
          if (input.kind === 'restored') states.set(threadId, input.state);
          try {
            const { state, facts, graceFor } = reduceTurn(states.get(threadId) ?? INITIAL_TURN_STATE, input, deps.newId);
            states.set(threadId, state);
            const value: ThreadFacts = { threadId, facts, turnOpen: state.turn !== null };
            if (graceFor !== undefined) value.graceFor = graceFor;
            if (state.pendingApprovalIds.length > 0) value.pendingApprovalIds = state.pendingApprovalIds;
            if (state.promptsForNextTurn > 0) value.promptAwaitingRun = true;
            return okStep(step.correlationId, value);
          } catch (cause) {
            return errorStep(
              step.correlationId,
              jsonRpcError(JSON_RPC_ERROR.internalError, 'Internal error in the turn rules', String(cause)),
            );
          }
        }),
      );
    });
}
