import type { AcpUpdate } from '../protocol/acpFrames';
import type { PlanStep } from '../protocol/threadEvents';

const STEP_STATUS: Record<string, PlanStep['status']> = { pending: 'pending', in_progress: 'inProgress', completed: 'completed' };

/**
 * ACP `plan {entries: [{content, priority, status}]}` as `turn/plan/updated.plan`, read leniently (E3): an
 * unknown status is `pending`, a priority that is not a string is left out, and an entry without text is
 * skipped rather than losing the plan. Undefined when `entries` is not a list: then the update is kept as
 * `provider/unhandled`.
 */
export function planOf(update: AcpUpdate): PlanStep[] | undefined {
  const entries: unknown = update['entries'];
  if (!Array.isArray(entries)) return undefined;
  return entries.flatMap((entry: unknown): PlanStep[] => {
    if (typeof entry !== 'object' || entry === null) return [];
    const { content, status, priority } = entry as Record<string, unknown>;
    if (typeof content !== 'string') return [];
    const step: PlanStep = { step: content, status: (typeof status === 'string' && STEP_STATUS[status]) || 'pending' };
    if (typeof priority === 'string') step.priority = priority;
    return [step];
  });
}
