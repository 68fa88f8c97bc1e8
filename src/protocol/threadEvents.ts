import { z } from 'zod';

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
} as const;
export type ThreadEventType = (typeof THREAD_EVENT_TYPE)[keyof typeof THREAD_EVENT_TYPE];

export const TurnStatusSchema = z.enum(['completed', 'failed', 'interrupted']);
export type TurnStatus = z.infer<typeof TurnStatusSchema>;

export const TurnOriginSchema = z.enum(['client', 'agent']);
export type TurnOrigin = z.infer<typeof TurnOriginSchema>;

const int = z.number().int().nonnegative();

export const TokenCountsSchema = z.object({
  totalTokens: int,
  inputTokens: int,
  cachedInputTokens: int,
  outputTokens: int,
});
export type TokenCounts = z.infer<typeof TokenCountsSchema>;

export const AgentMessageItemSchema = z.object({ type: z.literal('agentMessage'), id: z.string(), text: z.string() });
export type AgentMessageItem = z.infer<typeof AgentMessageItemSchema>;

/** Codex's item statuses; an item still running when its turn ends is completed as `failed` (docs/events.md). */
export const ItemStatusSchema = z.enum(['inProgress', 'completed', 'failed']);
export type ItemStatus = z.infer<typeof ItemStatusSchema>;

/** A `bash` run. `aggregatedOutput` is empty at start and pi's final result text at completion. */
export const CommandExecutionItemSchema = z.object({
  type: z.literal('commandExecution'),
  id: z.string(),
  command: z.string(),
  status: ItemStatusSchema,
  aggregatedOutput: z.string(),
  exitCode: z.number().int().optional(),
});
export type CommandExecutionItem = z.infer<typeof CommandExecutionItemSchema>;

/** An `edit` or `write` of one file; `diff` when pi gives one (edit), `error` when it failed. */
export const FileChangeItemSchema = z.object({
  type: z.literal('fileChange'),
  id: z.string(),
  tool: z.string(),
  path: z.string(),
  status: ItemStatusSchema,
  diff: z.string().optional(),
  error: z.string().optional(),
});
export type FileChangeItem = z.infer<typeof FileChangeItemSchema>;

/** Any other tool (`read`, `ls`, extension tools): its arguments and, once completed, pi's result unchanged. */
export const ToolCallItemSchema = z.object({
  type: z.literal('toolCall'),
  id: z.string(),
  tool: z.string(),
  arguments: z.unknown(),
  status: ItemStatusSchema,
  result: z.unknown().optional(),
});
export type ToolCallItem = z.infer<typeof ToolCallItemSchema>;

export const ThreadItemSchema = z.discriminatedUnion('type', [
  AgentMessageItemSchema,
  CommandExecutionItemSchema,
  FileChangeItemSchema,
  ToolCallItemSchema,
]);
export type ThreadItem = z.infer<typeof ThreadItemSchema>;

const base = { providerThreadId: z.string() };

/** `data` of each event type, as stored; clients may validate rows with these. */
export const ThreadEventDataSchemas = {
  [THREAD_EVENT_TYPE.turnStarted]: z.object({ ...base, origin: TurnOriginSchema }),
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
} satisfies Record<ThreadEventType, z.ZodType>;

export const ZERO_TOKENS: TokenCounts = { totalTokens: 0, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0 };
