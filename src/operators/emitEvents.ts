import { map, type OperatorFunction } from 'rxjs';
import { JSON_RPC_ERROR, jsonRpcError } from '../protocol/jsonRpc';
import { errorStep, okStep, type Step } from '../protocol/pipelineItems';
import { THREAD_EVENT_TYPE } from '../protocol/threadEvents';
import type { NewThreadEvent } from '../store/eventStore';
import type { ThreadFacts } from './scanTurnState';
import type { TurnFact } from './turnState';

export interface ThreadEvents {
  threadId: string;
  events: NewThreadEvent[];
  turnOpen: boolean;
}

export interface EmitEventsDeps {
  /** The agent SDK's id for the thread's session; defaults to the thread id. */
  providerThreadIdFor?(threadId: string): string;
  /** The model's context window in tokens, when known; see `UNKNOWN_CONTEXT_WINDOW`. */
  contextWindowFor?(threadId: string): number | undefined;
  /** Named in `provider/unhandled` and `provider/error` rows. */
  providerId?: string;
}

export const DEFAULT_PROVIDER_ID = 'pi';
/** Reported as `modelContextWindow` (with `estimated: true`) when `contextWindowFor` does not know the model. */
export const UNKNOWN_CONTEXT_WINDOW = 0;

/**
 * Shapes each turn fact as a thread event row (without seq): type, scope, `providerThreadId`, and the
 * payload of spec part 6.
 *
 * ```
 * in:  --F--|    F: { facts: [turnStarted(t1)] }
 * out: --E--|    E: { events: [{ type: "turn/started", turnId: "t1", scope: { kind: "turn", turnId: "t1" }, … }] }
 * ```
 */
export function emitEvents(deps: EmitEventsDeps = {}): OperatorFunction<Step<ThreadFacts>, Step<ThreadEvents>> {
  return map((step): Step<ThreadEvents> => {
    if (!step.ok) return step;
    const { threadId, facts, turnOpen } = step.value;
    try {
      const providerThreadId = deps.providerThreadIdFor?.(threadId) ?? threadId;
      const events = facts.map((fact) => eventOf(fact, threadId, providerThreadId, deps));
      return okStep(step.correlationId, { threadId, events, turnOpen });
    } catch (cause) {
      return errorStep(step.correlationId, jsonRpcError(JSON_RPC_ERROR.internalError, 'Internal error while emitting events', String(cause)));
    }
  });
}

function eventOf(fact: TurnFact, threadId: string, providerThreadId: string, deps: EmitEventsDeps): NewThreadEvent {
  const { turnId } = fact;
  return {
    threadId,
    type: TYPE_OF_FACT[fact.kind],
    turnId,
    scope: turnId === null ? { kind: 'thread' } : { kind: 'turn', turnId },
    data: dataOf(fact, threadId, providerThreadId, deps),
  };
}

const TYPE_OF_FACT: Record<TurnFact['kind'], string> = {
  turnStarted: THREAD_EVENT_TYPE.turnStarted,
  itemStarted: THREAD_EVENT_TYPE.itemStarted,
  itemDelta: THREAD_EVENT_TYPE.itemDelta,
  itemCompleted: THREAD_EVENT_TYPE.itemCompleted,
  tokenUsage: THREAD_EVENT_TYPE.tokenUsage,
  turnCompleted: THREAD_EVENT_TYPE.turnCompleted,
  contextWindowUsage: THREAD_EVENT_TYPE.contextWindowUsage,
  unhandled: THREAD_EVENT_TYPE.providerUnhandled,
  providerError: THREAD_EVENT_TYPE.providerError,
};

/** Payloads of spec part 6; each literal lists `providerThreadId` first (no spreads: one call per token). */
function dataOf(fact: TurnFact, threadId: string, providerThreadId: string, deps: EmitEventsDeps): NewThreadEvent['data'] {
  const providerId = deps.providerId ?? DEFAULT_PROVIDER_ID;
  switch (fact.kind) {
    case 'turnStarted':
      return { providerThreadId, origin: fact.origin };
    case 'itemStarted':
      return { providerThreadId, item: { type: 'agentMessage', id: fact.itemId, text: '' } };
    case 'itemDelta':
      return { providerThreadId, itemId: fact.itemId, delta: fact.delta };
    case 'itemCompleted':
      return { providerThreadId, item: { type: 'agentMessage', id: fact.itemId, text: fact.text } };
    case 'tokenUsage':
      return { providerThreadId, tokenUsage: { total: fact.total, last: fact.last } };
    case 'turnCompleted': {
      // pi exposes no checkpoint id at run end; the turn id is the stable handle a client can resume from.
      const completed = { providerThreadId, status: fact.status, providerCheckpointId: fact.turnId ?? '' };
      return fact.error ? { ...completed, error: fact.error } : completed;
    }
    case 'contextWindowUsage': {
      const window = deps.contextWindowFor?.(threadId);
      const known = window !== undefined && Number.isInteger(window) && window > 0;
      const modelContextWindow = known ? window : UNKNOWN_CONTEXT_WINDOW;
      return { providerThreadId, contextWindowUsage: { usedTokens: fact.usedTokens, modelContextWindow, estimated: fact.estimated || !known } };
    }
    case 'unhandled':
      return { providerThreadId, providerId, rawType: fact.rawType, rawEvent: fact.rawEvent };
    case 'providerError':
      return { providerThreadId, providerId, message: fact.message, willRetry: fact.willRetry };
  }
}
