import { z } from 'zod';
import { PermissionModeSchema } from '../../../protocol/approvals';

/**
 * The messages between the host daemon and one thread's agent process (Node IPC, JSON). The daemon sends
 * commands; the agent process answers each by its `id` and streams the provider's frames unchanged. Outer
 * envelopes are strict; a frame is whatever the provider emits (the pipeline validates it, as in-process).
 */

/** What `openThread` needs, minus `emit` (frames come back as `frame` messages). */
export const AgentOpenOptionsSchema = z.strictObject({
  threadId: z.string().min(1),
  cwd: z.string().min(1),
  model: z.string().min(1),
  permissionMode: PermissionModeSchema.optional(),
  dataDir: z.string().min(1),
  resumeProviderThreadId: z.string().optional(),
});
export type AgentOpenOptions = z.infer<typeof AgentOpenOptionsSchema>;

export const AgentCommandSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('open'), id: z.number().int(), options: AgentOpenOptionsSchema }),
  z.strictObject({ type: z.literal('prompt'), id: z.number().int(), text: z.string() }),
  z.strictObject({ type: z.literal('stop'), id: z.number().int() }),
  z.strictObject({ type: z.literal('dispose'), id: z.number().int() }),
]);
export type AgentCommand = z.infer<typeof AgentCommandSchema>;

/** What the agent knows besides its frames, sent with every frame so the daemon reads it synchronously. */
export const AgentFactsSchema = z.strictObject({
  providerThreadId: z.string().optional(),
  checkpointId: z.string().optional(),
  contextWindow: z.number().optional(),
});
export type AgentFacts = z.infer<typeof AgentFactsSchema>;

export const AgentReportSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('frame'), frame: z.unknown(), facts: AgentFactsSchema }),
  z.strictObject({ type: z.literal('reply'), id: z.number().int(), facts: AgentFactsSchema }),
  z.strictObject({ type: z.literal('failed'), id: z.number().int(), message: z.string() }),
  z.strictObject({ type: z.literal('log'), message: z.string() }),
  /** The agent process is about to exit because of an exception nothing caught (its first line). */
  z.strictObject({ type: z.literal('fatal'), message: z.string() }),
]);
export type AgentReport = z.infer<typeof AgentReportSchema>;
