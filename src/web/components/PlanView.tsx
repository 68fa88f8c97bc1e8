import type { PlanModel } from '../state/approvals';

const STEP_TEXT = { pending: 'to do', inProgress: 'in progress', completed: 'done' } as const;
const STEP_MARK = { pending: '○', inProgress: '◐', completed: '✓' } as const;

/** The turn's plan as a checklist; a newer `turn/plan/updated` row redraws it where it stands. */
export function PlanView({ plan }: { plan: PlanModel }) {
  const steps = plan.steps.value;
  const done = steps.filter((step) => step.status === 'completed').length;
  return (
    <section class="item plan" aria-label="Plan" data-plan-key={plan.key}>
      <p class="who">
        Plan <span class="muted">{`${done} of ${steps.length} done`}</span>
      </p>
      <ol class="plan-steps">
        {steps.map((step, index) => (
          <li key={index} class={`plan-step ${step.status}`}>
            <span class="plan-mark" aria-hidden="true">
              {STEP_MARK[step.status]}
            </span>{' '}
            <span class="plan-text">{step.step}</span> <span class="visually-hidden">({STEP_TEXT[step.status]})</span>
            {step.priority && <span class="plan-priority muted"> · {step.priority}</span>}
          </li>
        ))}
      </ol>
    </section>
  );
}
