import type { FsyncMode } from '../../fsyncMode';

interface Waiting<T, R> {
  item: T;
  resolve(result: R): void;
  reject(error: unknown): void;
}

/**
 * What `commit` gives back once the part of a group's commit that must run one group at a time is done: the
 * group's outcome, which may still wait (for the journal's fsync) while the next group is committed.
 */
export interface Committing<R> {
  /** Each item of the group answered with a result or an Error (that item's rejection). */
  readonly outcome: Promise<Array<R | Error>>;
}

/**
 * Runs `commit` over groups of submitted items, one group at a time. Items submitted while a group is being
 * committed form the next group, so under load many appends share one write and one fsync per file (group
 * commit), and when idle an append is committed at once. With `always` each item is a group of its own.
 * The next group starts once `commit` has returned, not once the group's outcome is known: the CPU of one
 * commit overlaps the fsync of the one before (which then is shared by all the groups prepared meanwhile).
 */
export function createGroupCommit<T, R>(mode: FsyncMode, commit: (group: readonly T[]) => Promise<Committing<R>>) {
  let waiting: Array<Waiting<T, R>> = [];
  let running: Promise<void> | undefined;
  let lastSubmitted: Promise<unknown> = Promise.resolve();

  const drain = async () => {
    while (waiting.length > 0) {
      const group = mode === 'always' ? waiting.splice(0, 1) : waiting.splice(0);
      let outcome: Promise<Array<R | Error>>;
      try {
        outcome = (await commit(group.map((entry) => entry.item))).outcome;
      } catch (error) {
        outcome = Promise.reject(error);
      }
      outcome.then(
        (results) =>
          group.forEach((entry, i) => {
            const result = results[i];
            if (result instanceof Error) entry.reject(result);
            else entry.resolve(result as R);
          }),
        (error: unknown) => {
          for (const entry of group) entry.reject(error);
        },
      );
    }
    running = undefined;
  };

  return {
    submit(item: T): Promise<R> {
      const done = new Promise<R>((resolve, reject) => waiting.push({ item, resolve, reject }));
      running ??= drain();
      lastSubmitted = done.then(
        () => undefined,
        () => undefined,
      );
      return done;
    },
    /** Settles once everything submitted so far is committed (or failed); later submissions are not waited for. */
    async settled(): Promise<void> {
      await lastSubmitted;
    },
  };
}
