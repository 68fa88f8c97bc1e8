import { z } from 'zod';
import { ReviewBlockCommentSchema } from './reviewBlock';

/**
 * The items of a thread (Codex's app-server shapes, spec 2.5): what the user sent, what the agent said and
 * thought, the commands it ran, the files it changed, the tools it called, its plan. `threadEvents.ts` carries
 * them in `item/started` / `item/completed` rows.
 */
export const AgentMessageItemSchema = z.object({ type: z.literal('agentMessage'), id: z.string(), text: z.string() });
export type AgentMessageItem = z.infer<typeof AgentMessageItemSchema>;

/** Codex's `UserInput`: what the user sent, one part per block (text, or an image as a data URL). */
export const UserInputSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('image'), url: z.string() }),
]);
export type UserInput = z.infer<typeof UserInputSchema>;

/**
 * A user message as the agent received it (a prompt, or a follow-up queued while a turn ran), in Codex's shape.
 * `reviewComments`: the review comments the prompt carried (issue 38), read back from its text's block.
 */
export const UserMessageItemSchema = z.object({
  type: z.literal('userMessage'),
  id: z.string(),
  content: z.array(UserInputSchema),
  reviewComments: z.array(ReviewBlockCommentSchema).optional(),
});
export type UserMessageItem = z.infer<typeof UserMessageItemSchema>;

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

/** The agent's reasoning (thinking) text, built from `item/reasoning/delta` rows like an agent message. */
export const ReasoningItemSchema = z.object({ type: z.literal('reasoning'), id: z.string(), text: z.string() });
export type ReasoningItem = z.infer<typeof ReasoningItemSchema>;

/** One step of an agent's plan, in Codex's words (`turn/plan/updated`); ACP's `in_progress` reads `inProgress`. */
export const PlanStepSchema = z.object({
  step: z.string(),
  status: z.enum(['pending', 'inProgress', 'completed']),
  priority: z.string().optional(),
});
export type PlanStep = z.infer<typeof PlanStepSchema>;

export const ThreadItemSchema = z.discriminatedUnion('type', [
  UserMessageItemSchema,
  AgentMessageItemSchema,
  ReasoningItemSchema,
  CommandExecutionItemSchema,
  FileChangeItemSchema,
  ToolCallItemSchema,
]);
export type ThreadItem = z.infer<typeof ThreadItemSchema>;
