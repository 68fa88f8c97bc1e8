export interface ReconnectPolicy {
  /** Wait before the first retry after a drop. */
  initialMs: number;
  /** The wait doubles per failed attempt up to this. */
  maxMs: number;
}

/**
 * Exponential backoff with "equal jitter": half the step is fixed, half random, so a server restart does not
 * get every daemon of a team back in the same millisecond, yet no daemon waits near zero on a dead server.
 * `attempt` counts failures since the last successful hello (0 = first retry).
 */
export function reconnectDelay(attempt: number, policy: ReconnectPolicy, random: () => number = Math.random): number {
  const step = Math.min(policy.maxMs, policy.initialMs * 2 ** Math.min(attempt, 30));
  return Math.round(step / 2 + (step / 2) * random());
}
