import { z } from 'zod';

/**
 * pi SDK payloads are validated leniently (rule E3): a strict key deep inside would turn a cosmetic change in
 * the SDK into a lost turn. Unknown fields pass unchanged; only what a rule reads is checked.
 */
export const SdkEventSchema = z.looseObject({ type: z.string() });
export type SdkEvent = z.infer<typeof SdkEventSchema>;

/** Content may be a string (extension messages), an array of blocks, or absent (E3). */
export const MessageContentSchema = z.union([z.string(), z.array(z.unknown())]).optional();
export type MessageContent = z.infer<typeof MessageContentSchema>;

export const AgentMessageSchema = z.looseObject({ role: z.string(), content: MessageContentSchema });
export type AgentMessage = z.infer<typeof AgentMessageSchema>;

const tokenCount = z.number().catch(0);

/** pi `Usage`; missing or non-numeric counts read as 0 so a partial usage never rejects a turn. */
export const SdkUsageSchema = z.looseObject({
  input: tokenCount,
  output: tokenCount,
  cacheRead: tokenCount,
  cacheWrite: tokenCount,
  totalTokens: tokenCount,
});
export type SdkUsage = z.infer<typeof SdkUsageSchema>;

export const AssistantMessageSchema = z.looseObject({
  role: z.literal('assistant'),
  content: MessageContentSchema,
  usage: SdkUsageSchema.optional().catch(undefined),
  stopReason: z.string().optional().catch(undefined),
  errorMessage: z.string().optional().catch(undefined),
});
export type AssistantMessage = z.infer<typeof AssistantMessageSchema>;

/** E3: `messages` must be an array whose elements have a string `role`; everything else is optional. */
export const AgentEndSchema = z.looseObject({
  type: z.literal('agent_end'),
  messages: z.array(AgentMessageSchema),
  /** pi 1.x: the run failed and will be retried within the same turn. 0.73 never sends it. */
  willRetry: z.boolean().optional(),
});
export type AgentEnd = z.infer<typeof AgentEndSchema>;

/**
 * `message_start` / `message_end` / `message_update`: only `message.role` and the text delta are read.
 * These run for every streamed token, so they read the two fields directly instead of parsing (and
 * copying) the whole message snapshot that pi attaches to each update; the rule is the same lenient one.
 */
export function messageRoleOf(event: SdkEvent): string | undefined {
  const message = event['message'];
  const role = typeof message === 'object' && message !== null ? (message as { role?: unknown }).role : undefined;
  return typeof role === 'string' ? role : undefined;
}

/** The text of a `message_update` whose `assistantMessageEvent` is a `text_delta`; undefined otherwise. */
export function textDeltaOf(event: SdkEvent): string | undefined {
  const update = event['assistantMessageEvent'] as { type?: unknown; delta?: unknown } | null | undefined;
  return update?.type === 'text_delta' && typeof update.delta === 'string' ? update.delta : undefined;
}

/** pi 1.x: the run (including any retries) is over; `aborted` when the user stopped it. */
export const AgentSettledSchema = z.looseObject({
  type: z.literal('agent_settled'),
  aborted: z.boolean().optional().catch(undefined),
});
export type AgentSettled = z.infer<typeof AgentSettledSchema>;

/** The text of an agent message's content: string content as is, text blocks joined. */
export function messageTextOf(content: AgentMessage['content']): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((block) => (isTextBlock(block) ? block.text : '')).join('');
}

function isTextBlock(block: unknown): block is { type: 'text'; text: string } {
  return (
    typeof block === 'object' &&
    block !== null &&
    (block as { type?: unknown }).type === 'text' &&
    typeof (block as { text?: unknown }).text === 'string'
  );
}

/**
 * `tool_execution_start` / `_update` / `_end` (pi-agent-core `AgentEvent`). `toolCallId` links them and is the
 * only field a rule cannot do without; `args`, `partialResult` and `result` are whatever the tool uses.
 */
const toolCallId = z.string().min(1);
const toolName = z.string().catch('unknown');

export const ToolExecutionStartSchema = z.looseObject({ toolCallId, toolName, args: z.unknown().optional() });
export type ToolExecutionStart = z.infer<typeof ToolExecutionStartSchema>;
export const ToolExecutionUpdateSchema = z.looseObject({ toolCallId, partialResult: z.unknown().optional() });
export type ToolExecutionUpdate = z.infer<typeof ToolExecutionUpdateSchema>;
export const ToolExecutionEndSchema = z.looseObject({
  toolCallId,
  toolName,
  result: z.unknown().optional(),
  isError: z.boolean().optional().catch(undefined),
});
export type ToolExecutionEnd = z.infer<typeof ToolExecutionEndSchema>;

/** pi's `AgentToolResult` (also the shape of a bash `partialResult`): content blocks plus tool-specific details. */
export const ToolResultSchema = z.looseObject({
  content: MessageContentSchema.catch(undefined),
  details: z.unknown().optional(),
});
export type ToolResult = z.infer<typeof ToolResultSchema>;
