import { asyncScheduler, type SchedulerLike, type Subscription } from 'rxjs';

/** How long a stop or a failed settle waits for the run's `agent_end` before the turn closes without it. */
export const DEFAULT_TURN_GRACE_MS = 5_000;

export interface GraceTimers {
  /** Calls `elapsed(threadId, turnId)` once `graceMs` have passed on the scheduler. */
  start(threadId: string, turnId: string): void;
  /** Every pending grace ends now, as if its time had passed (replay: at the end of the input nothing more comes). */
  elapseAll(): void;
  /** Drops every pending grace (the process is closing: the next one's restore rule closes such turns). */
  cancelAll(): void;
}

/**
 * The ingest's clock for turn graces: the deadline itself lives in the turn rules as state
 * (`closesAfterGrace`); this only says when it has passed. The scheduler is injected, so tests run on
 * virtual time.
 */
export function createGraceTimers(options: {
  graceMs: number;
  scheduler?: SchedulerLike;
  elapsed(threadId: string, turnId: string): void;
}): GraceTimers {
  const scheduler = options.scheduler ?? asyncScheduler;
  const pending = new Map<string, { threadId: string; turnId: string; timer?: Subscription }>();
  const fire = (key: string) => {
    const entry = pending.get(key);
    if (!entry) return;
    pending.delete(key);
    entry.timer?.unsubscribe();
    options.elapsed(entry.threadId, entry.turnId);
  };
  return {
    start(threadId, turnId) {
      const key = `${threadId}\u0000${turnId}`;
      if (pending.has(key)) return;
      const entry: { threadId: string; turnId: string; timer?: Subscription } = { threadId, turnId };
      pending.set(key, entry);
      entry.timer = scheduler.schedule(() => fire(key), options.graceMs);
    },
    elapseAll() {
      for (const key of [...pending.keys()]) fire(key);
    },
    cancelAll() {
      for (const { timer } of pending.values()) timer?.unsubscribe();
      pending.clear();
    },
  };
}
