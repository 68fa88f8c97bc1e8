import type { ApprovalRequestedParams, ApprovalResolvedParams } from '../protocol/approvals';
import type { TurnTransition } from './turnTransition';

/**
 * The turn rules for approvals (src/protocol/approvals.ts), the same for every provider. A question is a row of
 * the open turn (thread-scoped when none is open, E7) and stays pending until one answer: the user's, the
 * policy's, or a cancel. Whichever comes first is stored; any later answer to it, or an answer to a question
 * never asked, stores nothing, so the daemon's own cancel and the turn end's (turnTransition.ts) never
 * duplicate.
 *
 * ```
 * approval/requested {ap1}         ─▶ [item/completed] approval/requested {ap1}     (ap1 pending)
 * approval/resolved  {ap1, user}   ─▶ approval/resolved {ap1, decidedBy: user}
 * approval/resolved  {ap1, …}      ─▶ (nothing: ap1 is no longer pending)
 * stop … turn closes with ap2 open ─▶ approval/resolved {ap2, cancelled, reason}, …, turn/completed
 * ```
 */
export function onApprovalRequested(t: TurnTransition, { threadId: _thread, ...request }: ApprovalRequestedParams): void {
  const pending = t.state.pendingApprovalIds;
  if (pending.includes(request.approvalId)) return; // asked twice (a resent frame): one question
  // The text the agent wrote before asking is an item of its own, as before a tool call.
  t.completeItem();
  t.state.pendingApprovalIds = [...pending, request.approvalId];
  t.emit({ kind: 'approvalRequested', request });
}

export function onApprovalResolved(t: TurnTransition, { threadId: _thread, ...resolution }: ApprovalResolvedParams): void {
  const pending = t.state.pendingApprovalIds;
  if (!pending.includes(resolution.approvalId)) return;
  t.state.pendingApprovalIds = pending.filter((id) => id !== resolution.approvalId);
  t.emit({ kind: 'approvalResolved', resolution });
}
