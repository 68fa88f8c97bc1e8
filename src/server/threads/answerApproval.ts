import { z } from 'zod';
import { ApprovalOptionKindSchema } from '../../protocol/approvals';
import type { ThreadRecord } from '../../registry/records';
import type { HostDirectory } from '../hosts/hostDirectory';
import { Problem } from '../http/problem';

export const ApprovalAnswerBodySchema = z.strictObject({ optionId: z.string().min(1) });

/** `POST /threads/:id/approvals/:approvalId`: the answer the agent got. */
export const ApprovalAnsweredSchema = z.strictObject({
  approvalId: z.string(),
  optionId: z.string(),
  optionKind: ApprovalOptionKindSchema,
  decidedBy: z.literal('user'),
});
export type ApprovalAnswered = z.infer<typeof ApprovalAnsweredSchema>;

/**
 * Hands the user's answer to the thread's host, which holds the question (`thread.approve`); through the host
 * directory, so it reaches a remote host and works from any replica. Only the host knows whether the question
 * is still open: a stop may have cancelled it a moment ago.
 */
export async function answerApproval(
  hosts: HostDirectory,
  thread: ThreadRecord,
  approvalId: string,
  optionId: string,
): Promise<ApprovalAnswered> {
  const result = await hosts.call(thread.hostId, 'thread.approve', { threadId: thread.id, approvalId, optionId });
  switch (result.outcome) {
    case 'answered':
      return { approvalId, optionId, optionKind: result.optionKind, decidedBy: 'user' };
    case 'unknown':
      throw new Problem(404, 'approval_not_found', `thread ${thread.id} has no question ${approvalId} on its host`);
    case 'already-answered':
      throw new Problem(
        409,
        'approval_already_answered',
        `question ${approvalId} was answered already (by its user, its policy or a stop)`,
      );
    case 'unknown-option':
      throw new Problem(400, 'unknown_option', `the agent offered ${result.optionIds.join(', ')} for ${approvalId}, not ${optionId}`, {
        optionIds: result.optionIds,
      });
  }
}
