import { signal, type Signal } from '@preact/signals';
import type { ApprovalRequest, ApprovalResolution, PlanStep } from '../api/types';

/**
 * An agent's question in the transcript. It is pending until its `approval/resolved` row arrives, whoever
 * answered (this tab, another tab, the policy, a stop): the rows decide, so every tab and a reload agree.
 */
export interface ApprovalModel {
  kind: 'approval';
  key: string;
  request: ApprovalRequest;
  resolution: Signal<ApprovalResolution | null>;
}

/** A turn's plan: one entry per turn, its steps replaced by each `turn/plan/updated` row (the latest wins). */
export interface PlanModel {
  kind: 'plan';
  key: string;
  steps: Signal<PlanStep[]>;
}

export function approvalModelOf(request: ApprovalRequest): ApprovalModel {
  return { kind: 'approval', key: `approval-${request.approvalId}`, request, resolution: signal(null) };
}

export function planModelOf(turnId: string, steps: PlanStep[]): PlanModel {
  return { kind: 'plan', key: `plan-${turnId}`, steps: signal(steps) };
}

const isAllow = (kind: string | undefined) => kind === 'allow_once' || kind === 'allow_always';

/** True for the options a user reads as "yes": the card draws them as the primary buttons. */
export function allows(option: { kind: string }): boolean {
  return isAllow(option.kind);
}

/**
 * The one-line record a resolved question leaves: "Allowed by you", "Rejected by you",
 * "Allowed by policy (accept-edits)", "Cancelled: the turn was stopped".
 */
export function resolutionText(
  resolution: Pick<ApprovalResolution, 'decidedBy' | 'optionKind' | 'reason'>,
  permissionMode: string,
): string {
  if (resolution.decidedBy === 'cancelled') return `Cancelled${resolution.reason ? `: ${resolution.reason}` : ''}`;
  const verb = isAllow(resolution.optionKind) ? 'Allowed' : 'Rejected';
  return resolution.decidedBy === 'user' ? `${verb} by you` : `${verb} by policy (${permissionMode})`;
}
