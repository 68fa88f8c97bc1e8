import { Observable, Subject, filter, map, type Subscriber } from 'rxjs';
import type { StoredThreadEvent } from '../../store/eventStore';

/**
 * Live rows, published once they are stored, in the order the store answered. SSE streams subscribe here
 * before reading their backlog, so nothing stored in between is missed.
 */
export interface EventHub {
  publish(rows: readonly StoredThreadEvent[]): void;
  rowsOf$(threadId: string): Observable<StoredThreadEvent>;
  /**
   * The thread was deleted: its readers are told (`deleted$`) and their rows complete. Readers that come
   * later find no thread (404).
   */
  announceDeleted(threadId: string): void;
  /** Emits once when the thread is deleted, before its rows complete. */
  deleted$(threadId: string): Observable<void>;
  /** How many readers listen, over all threads. */
  subscriberCount(): number;
  /** Completes every live stream (server shutdown). */
  close(): void;
}

export function createEventHub(): EventHub {
  // Keyed by thread so a row costs one lookup, not one filter per subscriber of every thread.
  const byThread = new Map<string, Set<Subscriber<StoredThreadEvent>>>();
  let count = 0;
  const deletions = new Subject<string>();
  return {
    publish(rows) {
      for (const row of rows) byThread.get(row.threadId)?.forEach((subscriber) => subscriber.next(row));
    },
    rowsOf$(threadId) {
      return new Observable<StoredThreadEvent>((subscriber) => {
        const set = byThread.get(threadId) ?? new Set();
        byThread.set(threadId, set.add(subscriber));
        count++;
        return () => {
          count--;
          set.delete(subscriber);
          if (set.size === 0) byThread.delete(threadId);
        };
      });
    },
    announceDeleted(threadId) {
      deletions.next(threadId);
      for (const subscriber of [...(byThread.get(threadId) ?? [])]) subscriber.complete();
    },
    deleted$: (threadId) =>
      deletions.pipe(
        filter((deleted) => deleted === threadId),
        map(() => undefined),
      ),
    subscriberCount: () => count,
    close() {
      for (const set of byThread.values()) for (const subscriber of [...set]) subscriber.complete();
      byThread.clear();
    },
  };
}
