import { asyncScheduler, retry, throwError, timer, type MonoTypeOperatorFunction, type SchedulerLike } from 'rxjs';

export interface BackoffPolicy {
  /** The wait before the first retry; each next wait doubles. */
  initialDelayMs: number;
  /** No wait is longer than this. */
  maxDelayMs: number;
  /** Scheduler time after which no retry starts: the last error goes on instead. */
  deadline: number;
  /** Errors not worth another try (a receiver that refuses the body) go on at once. */
  retryable?: (error: unknown) => boolean;
}

/**
 * Resubscribes to a failing source after `initialDelayMs`, then twice that, … capped at `maxDelayMs`, until it
 * succeeds or the next try would start after `deadline`; then the error goes on. The clock is the scheduler's,
 * so a TestScheduler runs an hour of retries in a marble.
 *
 * ```
 * initialDelayMs 2, maxDelayMs 4, deadline 12; each try fails a frame after it starts
 * tries:   ^!-^!---^!          waits 2, then 4; the next 4 would end after the deadline
 * result:  ---------#
 * ```
 */
export function retryWithBackoff<T>(policy: BackoffPolicy, scheduler: SchedulerLike = asyncScheduler): MonoTypeOperatorFunction<T> {
  const retryable = policy.retryable ?? (() => true);
  return retry({
    delay: (error: unknown, retryCount: number) => {
      const wait = Math.min(policy.initialDelayMs * 2 ** (retryCount - 1), policy.maxDelayMs);
      if (!retryable(error) || scheduler.now() + wait > policy.deadline) return throwError(() => error);
      return timer(wait, scheduler);
    },
  });
}
