import { defer, map, type Observable, type OperatorFunction } from 'rxjs';
import { JSON_RPC_ERROR, jsonRpcError } from '../protocol/jsonRpc';
import { errorStep, okStep, type Step, type ThreadFacts } from './stageValues';
import type { TurnInput } from '../protocol/turnInput';
import { reduceTurn } from '../turns/turnRules';
import { INITIAL_TURN_STATE, type ThreadTurnState, type TurnFact } from '../turns/turnState';

export interface ScanTurnStateDeps {
  newId(): string;
  /**
   * State rebuilt from the store, handed over once: the stream (re)starts the thread from it, after a restart
   * or after a failed append lost rows its own state had counted. Undefined: go on with the stream's state
   * (the initial state for a thread it has not seen).
   */
  takeRestoredState?(threadId: string): ThreadTurnState | undefined;
}

/**
 * Applies the turn rules per thread; many threads interleave in one stream and never share state.
 * A rejected frame passes through untouched; a rule that throws rejects only its own frame.
 *
 * ```
 * in:  --s1--s2--x--e1--|   s: agent_start (threads 1, 2)   x: rejected frame   e1: agent_end (thread 1)
 * out: --S1--S2--x--E1--|   S: [turnStarted] open           E1: [tokenUsage, turnCompleted, …] closed
 * ```
 */
export function scanTurnState(deps: ScanTurnStateDeps): OperatorFunction<Step<TurnInput>, Step<ThreadFacts>> {
  return (source: Observable<Step<TurnInput>>) =>
    defer(() => {
      const states = new Map<string, ThreadTurnState>();
      const stateOf = (threadId: string): ThreadTurnState => {
        const restored = deps.takeRestoredState?.(threadId);
        // Kept at once: a rule that throws on this frame must not lose the state handed over.
        if (restored) states.set(threadId, restored);
        return restored ?? states.get(threadId) ?? INITIAL_TURN_STATE;
      };
      return source.pipe(
        map((step): Step<ThreadFacts> => {
          if (!step.ok) return step;
          const { threadId } = step.value;
          try {
            const { state, facts } = reduceTurn(stateOf(threadId), step.value, deps.newId);
            states.set(threadId, state);
            return okStep(step.correlationId, { threadId, facts, turnOpen: state.turn !== null });
          } catch (cause) {
            return errorStep(step.correlationId, jsonRpcError(JSON_RPC_ERROR.internalError, 'Internal error in the turn rules', String(cause)));
          }
        }),
      );
    });
}
