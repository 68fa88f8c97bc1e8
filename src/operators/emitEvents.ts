import { map, type OperatorFunction } from 'rxjs';
import { JSON_RPC_ERROR, jsonRpcError } from '../protocol/jsonRpc';
import { errorStep, okStep, type Step } from './stageValues';
import { THREAD_EVENT_TYPE } from '../protocol/threadEvents';
import type { NewThreadEvent } from '../store/eventStore';
import type { ThreadFacts } from './scanTurnState';
import { toolItemOf } from '../turns/toolItems';
import type { TurnFact } from '../turns/turnState';

export interface ThreadEvents {
  threadId: string;
  events: NewThreadEvent[];
  turnOpen: boolean;
  graceFor?: string;
}

export interface EmitEventsDeps {
  /** The agent SDK's id for the thread's session; defaults to the thread id. */
  providerThreadIdFor?(threadId: string): string;
  /** The model's context window in tokens, when known; see `UNKNOWN_CONTEXT_WINDOW`. */
  contextWindowFor?(threadId: string): number | undefined;
  /** The agent's checkpoint (pi: session leaf entry) as the closing frame passes; else the turn id stands in. */
  checkpointIdFor?(threadId: string): string | undefined;
  /** Named in `provider/unhandled` and `provider/error` rows. */
  providerId?: string;
  /**
   * The ingest's process, stamped on `turn/started` (`processEpoch`): a run belongs to a process, so a later
   * process that finds the turn open knows its run was lost (`onRestored`). Left out when not given.
   */
  processEpoch?: string;
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
    const { threadId, facts, turnOpen, graceFor } = step.value;
    try {
      const providerThreadId = deps.providerThreadIdFor?.(threadId) ?? threadId;
      const events = facts.map((fact) => eventOf(fact, threadId, providerThreadId, deps));
      const value: ThreadEvents = { threadId, events, turnOpen };
      if (graceFor !== undefined) value.graceFor = graceFor;
      return okStep(step.correlationId, value);
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
  toolStarted: THREAD_EVENT_TYPE.itemStarted,
  toolOutputDelta: THREAD_EVENT_TYPE.commandOutputDelta,
  toolCompleted: THREAD_EVENT_TYPE.itemCompleted,
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
      return deps.processEpoch === undefined ? { providerThreadId, origin: fact.origin } : { providerThreadId, origin: fact.origin, processEpoch: deps.processEpoch };
    case 'itemStarted':
      return { providerThreadId, item: { type: 'agentMessage', id: fact.itemId, text: '' } };
    case 'itemDelta':
      return { providerThreadId, itemId: fact.itemId, delta: fact.delta };
    case 'itemCompleted':
      return { providerThreadId, item: { type: 'agentMessage', id: fact.itemId, text: fact.text } };
    case 'toolStarted':
      return { providerThreadId, item: toolItemOf(fact.tool) };
    case 'toolOutputDelta':
      return { providerThreadId, itemId: fact.itemId, delta: fact.delta };
    case 'toolCompleted':
      return { providerThreadId, item: toolItemOf(fact.tool, fact.outcome) };
    case 'tokenUsage':
      return { providerThreadId, tokenUsage: { total: fact.total, last: fact.last } };
    case 'turnCompleted': {
      const providerCheckpointId = checkpointIdOf(threadId, deps) ?? fact.turnId ?? '';
      const completed = { providerThreadId, status: fact.status, providerCheckpointId };
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

function checkpointIdOf(threadId: string, deps: EmitEventsDeps): string | undefined {
  try {
    const id = deps.checkpointIdFor?.(threadId);
    return typeof id === 'string' && id !== '' ? id : undefined;
  } catch {
    return undefined; // a broken lookup must not cost the turn its completion (errors are values)
  }
}
