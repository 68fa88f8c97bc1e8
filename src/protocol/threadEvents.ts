import { z } from 'zod';
import { SHIP_ROW_TYPE, ShipRowDataSchemas } from './shipRows';
import { PlanStepSchema, ThreadItemSchema } from './threadItems';
import {
  ApprovalDeciderSchema,
  ApprovalOptionKindSchema,
  ApprovalOptionSchema,
  ApprovalSubjectSchema,
  PermissionModeSchema,
} from './approvals';

/** Every thread event type the pipeline writes (spec part 6, plus `provider/error`). */
export const THREAD_EVENT_TYPE = {
  turnStarted: 'turn/started',
  turnCompleted: 'turn/completed',
  itemStarted: 'item/started',
  itemDelta: 'item/agentMessage/delta',
  commandOutputDelta: 'item/commandExecution/outputDelta',
  itemCompleted: 'item/completed',
  tokenUsage: 'thread/tokenUsage/updated',
  contextWindowUsage: 'thread/contextWindowUsage/updated',
  providerUnhandled: 'provider/unhandled',
  providerError: 'provider/error',
  /** An agent's reasoning text, streamed into a `reasoning` item (ACP `agent_thought_chunk`). */
  reasoningDelta: 'item/reasoning/delta',
  /** The agent's plan, whole each time it changes (ACP `plan`); the page shows the latest in place. */
  planUpdated: 'turn/plan/updated',
  approvalRequested: 'approval/requested',
  approvalResolved: 'approval/resolved',
  /** The thread's own fields changed (rename, archive, keep-running, mode): only the changed ones are in `data`. */
  threadUpdated: 'thread/updated',
  /** The thread's files were put back to a turn's start (issue 39); the undone turns' rows stay, dimmed. */
  threadReverted: 'thread/reverted',
  /** A revert undone: the files as they were before it. */
  threadUnreverted: 'thread/unreverted',
  /** A fork's log: the source's rows up to a turn's end come first, then this row (issue 39, docs/fork.md). */
  threadForked: 'thread/forked',
  /** Shipping the thread's work (issue 39, shipRows.ts): a commit, a push, one that a kill stopped, a pull request and its state. */
  gitCommitted: SHIP_ROW_TYPE.committed,
  gitPushed: SHIP_ROW_TYPE.pushed,
  gitInterrupted: SHIP_ROW_TYPE.interrupted,
  prOpened: SHIP_ROW_TYPE.prOpened,
  prState: SHIP_ROW_TYPE.prState,
} as const;
export type ThreadEventType = (typeof THREAD_EVENT_TYPE)[keyof typeof THREAD_EVENT_TYPE];

export const TurnStatusSchema = z.enum(['completed', 'failed', 'interrupted']);
export type TurnStatus = z.infer<typeof TurnStatusSchema>;

export const TurnOriginSchema = z.enum(['client', 'agent']);
export type TurnOrigin = z.infer<typeof TurnOriginSchema>;

/** A thread is `active` while a turn is open (spec part 3), `idle` otherwise. */
export const ThreadStatusSchema = z.enum(['active', 'idle']);
export type ThreadStatus = z.infer<typeof ThreadStatusSchema>;

const int = z.number().int().nonnegative();

export const TokenCountsSchema = z.object({
  totalTokens: int,
  inputTokens: int,
  cachedInputTokens: int,
  outputTokens: int,
});
export type TokenCounts = z.infer<typeof TokenCountsSchema>;

export * from './threadItems';

const base = { providerThreadId: z.string() };

/** `data` of each event type, as stored; clients may validate rows with these. */
export const ThreadEventDataSchemas = {
  [THREAD_EVENT_TYPE.turnStarted]: z.object({
    ...base,
    origin: TurnOriginSchema,
    /** The ingest process that ran the turn: a later process that finds the turn open knows its run was lost. */
    processEpoch: z.string().optional(),
  }),
  [THREAD_EVENT_TYPE.turnCompleted]: z.object({
    ...base,
    status: TurnStatusSchema,
    providerCheckpointId: z.string(),
    error: z.object({ message: z.string() }).optional(),
  }),
  [THREAD_EVENT_TYPE.itemStarted]: z.object({ ...base, item: ThreadItemSchema }),
  [THREAD_EVENT_TYPE.itemDelta]: z.object({ ...base, itemId: z.string(), delta: z.string() }),
  [THREAD_EVENT_TYPE.commandOutputDelta]: z.object({ ...base, itemId: z.string(), delta: z.string() }),
  [THREAD_EVENT_TYPE.itemCompleted]: z.object({ ...base, item: ThreadItemSchema }),
  [THREAD_EVENT_TYPE.tokenUsage]: z.object({
    ...base,
    tokenUsage: z.object({ total: TokenCountsSchema, last: TokenCountsSchema }),
  }),
  [THREAD_EVENT_TYPE.contextWindowUsage]: z.object({
    ...base,
    contextWindowUsage: z.object({ usedTokens: int, modelContextWindow: int, estimated: z.boolean() }),
  }),
  [THREAD_EVENT_TYPE.providerUnhandled]: z.object({
    ...base,
    providerId: z.string(),
    rawType: z.string(),
    rawEvent: z.unknown(),
  }),
  [THREAD_EVENT_TYPE.providerError]: z.object({
    ...base,
    providerId: z.string(),
    message: z.string(),
    willRetry: z.boolean(),
  }),
  [THREAD_EVENT_TYPE.reasoningDelta]: z.object({ ...base, itemId: z.string(), delta: z.string() }),
  [THREAD_EVENT_TYPE.planUpdated]: z.object({ ...base, plan: z.array(PlanStepSchema) }),
  /** The question (src/protocol/approvals.ts); pending until an `approval/resolved` with its id. */
  [THREAD_EVENT_TYPE.approvalRequested]: z.object({
    ...base,
    approvalId: z.string(),
    subject: ApprovalSubjectSchema,
    options: z.array(ApprovalOptionSchema),
    permissionMode: PermissionModeSchema,
  }),
  [THREAD_EVENT_TYPE.approvalResolved]: z.object({
    ...base,
    approvalId: z.string(),
    decidedBy: ApprovalDeciderSchema,
    optionId: z.string().optional(),
    optionKind: ApprovalOptionKindSchema.optional(),
    reason: z.string().optional(),
  }),
  [THREAD_EVENT_TYPE.threadUpdated]: z.object({
    ...base,
    title: z.string().optional(),
    archived: z.boolean().optional(),
    keepAgentRunning: z.boolean().optional(),
    permissionMode: PermissionModeSchema.optional(),
  }),
  [THREAD_EVENT_TYPE.threadReverted]: z.object({
    ...base,
    turnId: z.string(),
    snapshotRef: z.string(),
    undoneTurnIds: z.array(z.string()),
  }),
  [THREAD_EVENT_TYPE.threadUnreverted]: z.object({ ...base, turnId: z.string(), snapshotRef: z.string() }),
  [THREAD_EVENT_TYPE.threadForked]: z.object({
    ...base,
    sourceThreadId: z.string(),
    /** The source's last row copied (its seq in the source); 0 when nothing was. */
    sourceSeq: int,
    /** The turn the fork continues after; null for a source with no completed turn. */
    sourceTurnId: z.string().nullable(),
  }),
  [SHIP_ROW_TYPE.committed]: ShipRowDataSchemas[SHIP_ROW_TYPE.committed].extend(base),
  [SHIP_ROW_TYPE.pushed]: ShipRowDataSchemas[SHIP_ROW_TYPE.pushed].extend(base),
  [SHIP_ROW_TYPE.interrupted]: ShipRowDataSchemas[SHIP_ROW_TYPE.interrupted].extend(base),
  [SHIP_ROW_TYPE.prOpened]: ShipRowDataSchemas[SHIP_ROW_TYPE.prOpened].extend(base),
  [SHIP_ROW_TYPE.prState]: ShipRowDataSchemas[SHIP_ROW_TYPE.prState].extend(base),
} satisfies Record<ThreadEventType, z.ZodType>;

/**
 * Where a thread event belongs: events emitted while a turn is open carry that turn's scope (rule E7);
 * anything else is thread-scoped.
 */
export const EventScopeSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('turn'), turnId: z.string() }),
  z.strictObject({ kind: z.literal('thread') }),
]);
export type EventScope = z.infer<typeof EventScopeSchema>;

/**
 * A row of one event type. The row itself is strict; its `data` is loose, so a field a daemon adds within the
 * same protocol version travels through the link and the store instead of being stripped.
 */
function rowOf<Type extends ThreadEventType, Shape extends z.ZodRawShape>(type: Type, data: z.ZodObject<Shape>) {
  return z.strictObject({
    threadId: z.string().min(1),
    type: z.literal(type),
    turnId: z.string().nullable(),
    scope: EventScopeSchema,
    data: z.looseObject(data.shape),
  });
}

const T = THREAD_EVENT_TYPE;
const D = ThreadEventDataSchemas;

/**
 * A thread event before the store gives it a `seq` (spec 2.5): the one definition of a row, which the
 * pipeline produces (`emitEvents`), the daemon link carries and the stores keep.
 */
export const NewThreadEventSchema = z.discriminatedUnion('type', [
  rowOf(T.turnStarted, D[T.turnStarted]),
  rowOf(T.turnCompleted, D[T.turnCompleted]),
  rowOf(T.itemStarted, D[T.itemStarted]),
  rowOf(T.itemDelta, D[T.itemDelta]),
  rowOf(T.commandOutputDelta, D[T.commandOutputDelta]),
  rowOf(T.itemCompleted, D[T.itemCompleted]),
  rowOf(T.tokenUsage, D[T.tokenUsage]),
  rowOf(T.contextWindowUsage, D[T.contextWindowUsage]),
  rowOf(T.providerUnhandled, D[T.providerUnhandled]),
  rowOf(T.providerError, D[T.providerError]),
  rowOf(T.reasoningDelta, D[T.reasoningDelta]),
  rowOf(T.planUpdated, D[T.planUpdated]),
  rowOf(T.approvalRequested, D[T.approvalRequested]),
  rowOf(T.approvalResolved, D[T.approvalResolved]),
  rowOf(T.threadUpdated, D[T.threadUpdated]),
  rowOf(T.threadReverted, D[T.threadReverted]),
  rowOf(T.threadUnreverted, D[T.threadUnreverted]),
  rowOf(T.threadForked, D[T.threadForked]),
  rowOf(T.gitCommitted, D[T.gitCommitted]),
  rowOf(T.gitPushed, D[T.gitPushed]),
  rowOf(T.gitInterrupted, D[T.gitInterrupted]),
  rowOf(T.prOpened, D[T.prOpened]),
  rowOf(T.prState, D[T.prState]),
]);
export type NewThreadEvent = z.infer<typeof NewThreadEventSchema>;

/** What the store adds: `seq` is 1, 2, 3… per thread with no gap and no duplicate. */
export const StoredFieldsSchema = z.strictObject({ id: z.string(), seq: z.number().int().positive(), createdAt: z.string() });
export type StoredFields = z.infer<typeof StoredFieldsSchema>;

export type StoredThreadEvent = NewThreadEvent & StoredFields;
/**
 * A stored row from a new one and the store's fields. Built field by field: a spread of both objects cost
 * ~2 µs per event in bench:hosts profiles. The cast is sound because `type` and `data` travel together.
 */
export function storedRowOf(event: NewThreadEvent, id: string, seq: number, createdAt: string): StoredThreadEvent {
  const { threadId, type, turnId, scope, data } = event;
  return { id, threadId, seq, type, turnId, scope, data, createdAt } as StoredThreadEvent;
}

export const StoredThreadEventSchema: z.ZodType<StoredThreadEvent> = z.discriminatedUnion(
  'type',
  NewThreadEventSchema.options.map((row) => row.extend(StoredFieldsSchema.shape)) as unknown as [
    (typeof NewThreadEventSchema.options)[number],
  ],
) as unknown as z.ZodType<StoredThreadEvent>;

export const ZERO_TOKENS: TokenCounts = { totalTokens: 0, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0 };
