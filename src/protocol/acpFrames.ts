import { z } from 'zod';

/**
 * The frames an ACP agent provider sends into the thread-event pipeline. The outer envelope is strict on what
 * the rules read (`threadId`, the method); the ACP payload inside is read leniently, as the agent sent it: a
 * strict key deep inside would lose a whole update over a field an agent added (rule E3, spec part 5).
 *
 * ```
 * acp/prompt/started {threadId, prompt?}              right before `session/prompt` is sent (prompt: its text)
 * acp/update         {threadId, update}               each `session/update`, in arrival order
 * acp/prompt/ended   {threadId, stopReason?, usage?, error?}
 *                                                     after every update that arrived before the answer
 * ```
 */
export const ACP_METHOD = {
  promptStarted: 'acp/prompt/started',
  update: 'acp/update',
  promptEnded: 'acp/prompt/ended',
} as const;

const ThreadIdSchema = z.string().min(1);

/** One ACP `SessionUpdate`: only its `sessionUpdate` kind is required; each rule reads the rest leniently. */
export const AcpUpdateSchema = z.looseObject({ sessionUpdate: z.string() });
export type AcpUpdate = z.infer<typeof AcpUpdateSchema>;

export const AcpUpdateParamsSchema = z.object({ threadId: ThreadIdSchema, update: AcpUpdateSchema });
export type AcpUpdateParams = z.infer<typeof AcpUpdateParamsSchema>;

/** `prompt`: the text sent, shown as the turn's `userMessage` (an ACP agent does not echo it back; issue 29). */
export const AcpPromptStartedParamsSchema = z.object({ threadId: ThreadIdSchema, prompt: z.string().optional() });
export type AcpPromptStartedParams = z.infer<typeof AcpPromptStartedParamsSchema>;

/** ACP `Usage` of one prompt (tokens of every model call it made); counts that are not numbers read as 0. */
const count = z.number().catch(0);
export const AcpUsageSchema = z.looseObject({
  inputTokens: count,
  outputTokens: count,
  cachedReadTokens: count.optional(),
  cachedWriteTokens: count.optional(),
  totalTokens: count,
});
export type AcpUsage = z.infer<typeof AcpUsageSchema>;

/**
 * The prompt's answer: its `stopReason` (`end_turn`, `cancelled`, `refusal`, `max_tokens`, `max_turn_requests`,
 * or one an agent made up), or the `error` the request failed with (the agent died, refused the prompt).
 */
export const AcpPromptEndedParamsSchema = z.object({
  threadId: ThreadIdSchema,
  stopReason: z.string().optional().catch(undefined),
  usage: AcpUsageSchema.optional().catch(undefined),
  error: z.unknown().optional(),
});
export type AcpPromptEndedParams = z.infer<typeof AcpPromptEndedParamsSchema>;

/** What the turn rules get from an ACP frame (see `TurnInput`). */
export type AcpEvent =
  | { type: 'promptStarted'; prompt?: string }
  | { type: 'update'; update: AcpUpdate }
  | { type: 'promptEnded'; stopReason?: string; usage?: AcpUsage; error?: unknown };

export function acpUpdateFrame(threadId: string, update: unknown) {
  return { jsonrpc: '2.0' as const, method: ACP_METHOD.update, params: { threadId, update } };
}

export function acpPromptStartedFrame(threadId: string, prompt?: string) {
  return { jsonrpc: '2.0' as const, method: ACP_METHOD.promptStarted, params: prompt === undefined ? { threadId } : { threadId, prompt } };
}

export function acpPromptEndedFrame(threadId: string, answer: { stopReason?: string; usage?: unknown; error?: unknown }) {
  return { jsonrpc: '2.0' as const, method: ACP_METHOD.promptEnded, params: { threadId, ...answer } };
}
