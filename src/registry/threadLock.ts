/**
 * One owner per thread (issue 37): a change of a thread reads its record, decides, writes the record and
 * appends its `thread/updated` row; two changes of one thread that interleave can leave the record saying one
 * thing and the last row (what SSE readers and the page follow) the other. Every change of a thread's record
 * runs through `run`, so the changes of one thread run one after another, in the order they asked, while
 * changes of different threads run side by side. Not re-entrant: a change must not wait for another change of
 * its own thread (one started in the background, not awaited, is queued behind it).
 */
export interface ThreadLock {
  /** Runs `change` once every change of the thread asked before it has settled; its result or its failure. */
  run<T>(threadId: string, change: () => Promise<T>): Promise<T>;
}

/**
 * The changes of one process, in a promise chain per thread (one map entry while a thread has changes queued).
 * With a shared store it is the first stage in front of `across`, the lock other processes see: a process
 * then holds at most one of those (one database connection) per thread, however many of its requests wait.
 */
export function inProcessThreadLock(across?: ThreadLock): ThreadLock {
  const tails = new Map<string, Promise<void>>();
  return {
    run<T>(threadId: string, change: () => Promise<T>): Promise<T> {
      const owned = across ? () => across.run(threadId, change) : change;
      const result = (tails.get(threadId) ?? Promise.resolve()).then(owned);
      const tail = result.then(
        () => undefined,
        () => undefined,
      );
      tails.set(threadId, tail);
      void tail.then(() => {
        if (tails.get(threadId) === tail) tails.delete(threadId);
      });
      return result;
    },
  };
}
