import { map, type OperatorFunction } from 'rxjs';
import { JSON_RPC_ERROR, jsonRpcError } from '../protocol/jsonRpc';
import { errorStep, okStep, type Step, type ThreadFacts, type ThreadEvents } from './stageValues';
import { THREAD_EVENT_TYPE, type EventScope, type NewThreadEvent } from '../protocol/threadEvents';
import { toolItemOf } from '../turns/toolItems';
import type { TurnFact } from '../turns/turnState';

export interface EmitEventsDeps {
  /** The agent SDK's id for the thread's session; defaults to the thread id. */
  providerThreadIdFor?(threadId: string): string;
  /** The model's context window in tokens, when known; see `UNKNOWN_CONTEXT_WINDOW`. */
  contextWindowFor?(threadId: string): number | undefined;
  /** The agent's checkpoint (pi: session leaf entry) as the closing frame passes; else the turn id stands in. */
  checkpointIdFor?(threadId: string): string | undefined;
  /** Named in `provider/unhandled` and `provider/error` rows. */
  providerId?: string;
  /** The agent running the thread (`claude`, `codex`, …), named in those rows instead of `providerId` when known. */
  providerIdFor?(threadId: string): string | undefined;
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
    const { threadId, facts, turnOpen, graceFor, pendingApprovalIds, promptAwaitingRun } = step.value;
    try {
      const providerThreadId = deps.providerThreadIdFor?.(threadId) ?? threadId;
      const events = facts.map((fact) => eventOf(fact, threadId, providerThreadId, deps));
      const value: ThreadEvents = { threadId, events, turnOpen };
      if (graceFor !== undefined) value.graceFor = graceFor;
      if (pendingApprovalIds !== undefined) value.pendingApprovalIds = pendingApprovalIds;
      if (promptAwaitingRun) value.promptAwaitingRun = true;
      return okStep(step.correlationId, value);
    } catch (cause) {
      return errorStep(
        step.correlationId,
        jsonRpcError(JSON_RPC_ERROR.internalError, 'Internal error while emitting events', String(cause)),
      );
    }
  });
}

/**
 * The row of each fact (spec part 6). Each case spells out one member of the row union, so the compiler ties
 * every `type` to the `data` its schema declares; literals list `providerThreadId` first (no spreads: one
 * allocation per delta, the hot path).
 */
function eventOf(fact: TurnFact, threadId: string, providerThreadId: string, deps: EmitEventsDeps): NewThreadEvent {
  const { turnId } = fact;
  const scope: EventScope = turnId === null ? { kind: 'thread' } : { kind: 'turn', turnId };
  const T = THREAD_EVENT_TYPE;
  switch (fact.kind) {
    case 'turnStarted':
      return {
        threadId,
        type: T.turnStarted,
        turnId,
        scope,
        data:
          deps.processEpoch === undefined
            ? { providerThreadId, origin: fact.origin }
            : { providerThreadId, origin: fact.origin, processEpoch: deps.processEpoch },
      };
    case 'userMessageStarted':
      return { threadId, type: T.itemStarted, turnId, scope, data: { providerThreadId, item: fact.item } };
    case 'userMessageCompleted':
      return { threadId, type: T.itemCompleted, turnId, scope, data: { providerThreadId, item: fact.item } };
    case 'itemStarted': {
      const item = { type: 'agentMessage' as const, id: fact.itemId, text: '' };
      return { threadId, type: T.itemStarted, turnId, scope, data: { providerThreadId, item } };
    }
    case 'itemDelta':
      return { threadId, type: T.itemDelta, turnId, scope, data: { providerThreadId, itemId: fact.itemId, delta: fact.delta } };
    case 'itemCompleted': {
      const item = { type: 'agentMessage' as const, id: fact.itemId, text: fact.text };
      return { threadId, type: T.itemCompleted, turnId, scope, data: { providerThreadId, item } };
    }
    case 'reasoningStarted': {
      const item = { type: 'reasoning' as const, id: fact.itemId, text: '' };
      return { threadId, type: T.itemStarted, turnId, scope, data: { providerThreadId, item } };
    }
    case 'reasoningDelta':
      return { threadId, type: T.reasoningDelta, turnId, scope, data: { providerThreadId, itemId: fact.itemId, delta: fact.delta } };
    case 'reasoningCompleted': {
      const item = { type: 'reasoning' as const, id: fact.itemId, text: fact.text };
      return { threadId, type: T.itemCompleted, turnId, scope, data: { providerThreadId, item } };
    }
    case 'planUpdated':
      return { threadId, type: T.planUpdated, turnId, scope, data: { providerThreadId, plan: fact.plan } };
    case 'approvalRequested':
      return { threadId, type: T.approvalRequested, turnId, scope, data: { providerThreadId, ...fact.request } };
    case 'approvalResolved':
      return { threadId, type: T.approvalResolved, turnId, scope, data: { providerThreadId, ...fact.resolution } };
    case 'threadUpdated':
      return { threadId, type: T.threadUpdated, turnId, scope, data: { providerThreadId, ...fact.changes } };
    case 'rewound':
      return { threadId, type: fact.change.method, turnId, scope, data: { providerThreadId, ...fact.change.data } } as NewThreadEvent;
    case 'shipRow':
      return { threadId, type: fact.row.type, turnId, scope, data: { providerThreadId, ...fact.row.data } } as NewThreadEvent;
    case 'toolStarted':
      return { threadId, type: T.itemStarted, turnId, scope, data: { providerThreadId, item: toolItemOf(fact.tool) } };
    case 'toolOutputDelta':
      return { threadId, type: T.commandOutputDelta, turnId, scope, data: { providerThreadId, itemId: fact.itemId, delta: fact.delta } };
    case 'toolCompleted':
      return { threadId, type: T.itemCompleted, turnId, scope, data: { providerThreadId, item: toolItemOf(fact.tool, fact.outcome) } };
    case 'tokenUsage':
      return {
        threadId,
        type: T.tokenUsage,
        turnId,
        scope,
        data: { providerThreadId, tokenUsage: { total: fact.total, last: fact.last } },
      };
    case 'turnCompleted': {
      const providerCheckpointId = checkpointIdOf(threadId, deps) ?? fact.turnId ?? '';
      const completed = { providerThreadId, status: fact.status, providerCheckpointId };
      return { threadId, type: T.turnCompleted, turnId, scope, data: fact.error ? { ...completed, error: fact.error } : completed };
    }
    case 'contextWindowUsage': {
      const window = deps.contextWindowFor?.(threadId);
      const known = window !== undefined && Number.isInteger(window) && window > 0;
      const modelContextWindow = known ? window : UNKNOWN_CONTEXT_WINDOW;
      const contextWindowUsage = { usedTokens: fact.usedTokens, modelContextWindow, estimated: fact.estimated || !known };
      return { threadId, type: T.contextWindowUsage, turnId, scope, data: { providerThreadId, contextWindowUsage } };
    }
    case 'unhandled':
      return {
        threadId,
        type: T.providerUnhandled,
        turnId,
        scope,
        data: { providerThreadId, providerId: providerIdOf(threadId, deps), rawType: fact.rawType, rawEvent: fact.rawEvent },
      };
    case 'providerError':
      return {
        threadId,
        type: T.providerError,
        turnId,
        scope,
        data: { providerThreadId, providerId: providerIdOf(threadId, deps), message: fact.message, willRetry: fact.willRetry },
      };
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

function providerIdOf(threadId: string, deps: EmitEventsDeps): string {
  return deps.providerIdFor?.(threadId) ?? deps.providerId ?? DEFAULT_PROVIDER_ID;
}
