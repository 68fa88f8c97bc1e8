import { z } from 'zod';
import { ApprovalOptionKindSchema, ApprovalOptionSchema, ApprovalSubjectSchema, PermissionModeSchema } from '../../../protocol/approvals';

/**
 * The messages between the host daemon and one thread's agent process (Node IPC, JSON). The daemon sends
 * commands; the agent process answers each by its `id` and streams the provider's frames unchanged. Outer
 * envelopes are strict; a frame is whatever the provider emits (the pipeline validates it, as in-process).
 *
 * Approvals go the other way: the agent `ask`s (numbered by the agent, `questionId`), the daemon calls the
 * thread's real `AskUser` and sends its decision back as an `answer`; `askAborted` says the agent stopped
 * waiting (its run was stopped), so the daemon cancels the question too.
 */

/** What `openThread` needs, minus `emit` (frames come back as `frame` messages) and `askUser` (`ask` messages). */
export const AgentOpenOptionsSchema = z.strictObject({
  threadId: z.string().min(1),
  cwd: z.string().min(1),
  model: z.string().min(1),
  permissionMode: PermissionModeSchema.optional(),
  dataDir: z.string().min(1),
  resumeProviderThreadId: z.string().optional(),
  /** The daemon gave the thread an `askUser`: the agent's questions go to it (otherwise the agent refuses them). */
  canAskUser: z.boolean(),
});
export type AgentOpenOptions = z.infer<typeof AgentOpenOptionsSchema>;

export const ApprovalQuestionSchema = z.strictObject({ subject: ApprovalSubjectSchema, options: z.array(ApprovalOptionSchema) });

/** `ApprovalDecision` (protocol/approvals.ts) as a schema: the answer crosses a process boundary here. */
export const ApprovalDecisionSchema = z.discriminatedUnion('outcome', [
  z.strictObject({
    outcome: z.literal('selected'),
    optionId: z.string(),
    optionKind: ApprovalOptionKindSchema,
    decidedBy: z.enum(['user', 'policy']),
  }),
  z.strictObject({ outcome: z.literal('cancelled'), decidedBy: z.literal('cancelled'), reason: z.string() }),
]);

export const AgentCommandSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('open'), id: z.number().int(), options: AgentOpenOptionsSchema }),
  z.strictObject({ type: z.literal('prompt'), id: z.number().int(), text: z.string() }),
  z.strictObject({ type: z.literal('stop'), id: z.number().int() }),
  z.strictObject({ type: z.literal('dispose'), id: z.number().int() }),
  z.strictObject({ type: z.literal('setPermissionMode'), id: z.number().int(), mode: PermissionModeSchema }),
  /** The decision on one of the agent's questions; not a request, so nothing replies to it. */
  z.strictObject({ type: z.literal('answer'), questionId: z.number().int(), decision: ApprovalDecisionSchema }),
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
  z.strictObject({ type: z.literal('ask'), questionId: z.number().int(), question: ApprovalQuestionSchema }),
  z.strictObject({ type: z.literal('askAborted'), questionId: z.number().int() }),
]);
export type AgentReport = z.infer<typeof AgentReportSchema>;
