import { z } from 'zod';

/**
 * Approvals: an agent asks whether a tool call may run, and the thread's permission mode or its user answers.
 * Every provider asks the same way (`AskUser` in providers/agentProvider.ts); the daemon turns each question and
 * its answer into two frames of the thread's stream, which the turn rules store as rows:
 *
 * ```
 * approval/requested {threadId, approvalId, subject, options, permissionMode}   the question, as the user sees it
 * approval/resolved  {threadId, approvalId, decidedBy, optionId?, optionKind?, reason?}
 * ```
 *
 * A question the policy answers gets both frames at once (`decidedBy: "policy"`), so the transcript says what
 * ran without asking. A turn that ends with a question open (stop, dead agent, grace) resolves it `cancelled`.
 */
export const APPROVAL_METHOD = {
  requested: 'approval/requested',
  resolved: 'approval/resolved',
} as const;

/**
 * `ask`: every question waits for the user. `accept-edits` (the default): edits inside the thread's folder are
 * allowed by policy, anything else the agent asks about waits for the user. `full-access`: everything is allowed
 * by policy; refused unless the host's owner turned it on (`ATS_ALLOW_FULL_ACCESS=1`).
 */
export const PermissionModeSchema = z.enum(['ask', 'accept-edits', 'full-access']);
export type PermissionMode = z.infer<typeof PermissionModeSchema>;
export const DEFAULT_PERMISSION_MODE: PermissionMode = 'accept-edits';

/** ACP's `PermissionOptionKind`: agents name options differently, so a decision is read from the kind. */
export const ApprovalOptionKindSchema = z.enum(['allow_once', 'allow_always', 'reject_once', 'reject_always']);
export type ApprovalOptionKind = z.infer<typeof ApprovalOptionKindSchema>;

export const ApprovalOptionSchema = z.object({ optionId: z.string().min(1), name: z.string(), kind: ApprovalOptionKindSchema });
export type ApprovalOption = z.infer<typeof ApprovalOptionSchema>;

/**
 * What the question is about, as the page shows it. `kind` is ACP's `ToolKind` (`execute`, `edit`, `delete`,
 * `move`, `read`, `search`, `fetch`, `think`, `other`, or one an agent made up); `paths` are absolute.
 */
export const ApprovalSubjectSchema = z.object({
  kind: z.string(),
  title: z.string(),
  /** The agent's id of the tool call the question is about, when it has one (the item id of its tool row). */
  toolCallId: z.string().optional(),
  command: z.string().optional(),
  diff: z.string().optional(),
  paths: z.array(z.string()),
});
export type ApprovalSubject = z.infer<typeof ApprovalSubjectSchema>;

/** Who answered: the thread's user, the permission mode's policy, or nobody (stop, dead agent, grace). */
export const ApprovalDeciderSchema = z.enum(['user', 'policy', 'cancelled']);
export type ApprovalDecider = z.infer<typeof ApprovalDeciderSchema>;

const ThreadIdSchema = z.string().min(1);
const ApprovalIdSchema = z.string().min(1);

export const ApprovalRequestedParamsSchema = z.object({
  threadId: ThreadIdSchema,
  approvalId: ApprovalIdSchema,
  subject: ApprovalSubjectSchema,
  options: z.array(ApprovalOptionSchema),
  permissionMode: PermissionModeSchema,
});
export type ApprovalRequestedParams = z.infer<typeof ApprovalRequestedParamsSchema>;

export const ApprovalResolvedParamsSchema = z.object({
  threadId: ThreadIdSchema,
  approvalId: ApprovalIdSchema,
  decidedBy: ApprovalDeciderSchema,
  /** The option chosen; absent when cancelled. */
  optionId: z.string().optional(),
  optionKind: ApprovalOptionKindSchema.optional(),
  /** Why, in a sentence: the policy's rule, or what cancelled it. */
  reason: z.string().optional(),
});
export type ApprovalResolvedParams = z.infer<typeof ApprovalResolvedParamsSchema>;

/** What a provider asks (`AskUser`): the daemon adds the approval id, the thread and the mode. */
export interface ApprovalQuestion {
  subject: ApprovalSubject;
  options: ApprovalOption[];
}

/** The answer a provider gets: never a rejection; `cancelled` when nobody chose (stop, dead agent, dispose). */
export type ApprovalDecision =
  | { outcome: 'selected'; optionId: string; optionKind: ApprovalOptionKind; decidedBy: 'user' | 'policy' }
  | { outcome: 'cancelled'; decidedBy: 'cancelled'; reason: string };

export function approvalRequestedFrame(params: ApprovalRequestedParams) {
  return { jsonrpc: '2.0' as const, method: APPROVAL_METHOD.requested, params };
}

export function approvalResolvedFrame(params: ApprovalResolvedParams) {
  return { jsonrpc: '2.0' as const, method: APPROVAL_METHOD.resolved, params };
}
