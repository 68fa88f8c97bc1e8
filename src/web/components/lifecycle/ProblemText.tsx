/** A refused change, said once beside the control that asked for it. */
export function ProblemText({ problem }: { problem: string | null }) {
  if (!problem) return null;
  return (
    <span role="alert" class="error-text">
      {' '}
      {problem}
    </span>
  );
}
