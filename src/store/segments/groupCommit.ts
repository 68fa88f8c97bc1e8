import type { FsyncMode } from '../fsyncMode';

interface Waiting<T, R> {
  item: T;
  resolve(result: R): void;
  reject(error: unknown): void;
}

/**
 * Runs `commit` over groups of submitted items, one group at a time. Items submitted while a group is being
 * committed form the next group, so under load many appends share one write and one fsync per file (group
 * commit), and when idle an append is committed at once. With `always` each item is a group of its own.
 * `commit` answers each item of its group with a result or an Error (that item's rejection).
 */
export function createGroupCommit<T, R>(mode: FsyncMode, commit: (group: readonly T[]) => Promise<Array<R | Error>>) {
  let waiting: Array<Waiting<T, R>> = [];
  let running: Promise<void> | undefined;
  let lastSubmitted: Promise<unknown> = Promise.resolve();

  const drain = async () => {
    while (waiting.length > 0) {
      const group = mode === 'always' ? waiting.splice(0, 1) : waiting.splice(0);
      try {
        const results = await commit(group.map((entry) => entry.item));
        group.forEach((entry, i) => {
          const result = results[i];
          if (result instanceof Error) entry.reject(result);
          else entry.resolve(result as R);
        });
      } catch (error) {
        for (const entry of group) entry.reject(error);
      }
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
