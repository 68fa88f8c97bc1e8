import { Observable, type Subscriber } from 'rxjs';
import type { StoredThreadEvent } from '../../store/eventStore';

/**
 * Live rows, published once they are stored, in the order the store answered. SSE streams subscribe here
 * before reading their backlog, so nothing stored in between is missed.
 */
export interface EventHub {
  publish(rows: readonly StoredThreadEvent[]): void;
  rowsOf$(threadId: string): Observable<StoredThreadEvent>;
  /** How many readers listen, over all threads. */
  subscriberCount(): number;
  /** Completes every live stream (server shutdown). */
  close(): void;
}

export function createEventHub(): EventHub {
  // Keyed by thread so a row costs one lookup, not one filter per subscriber of every thread.
  const byThread = new Map<string, Set<Subscriber<StoredThreadEvent>>>();
  let count = 0;
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
    subscriberCount: () => count,
    close() {
      for (const set of byThread.values()) for (const subscriber of [...set]) subscriber.complete();
      byThread.clear();
    },
  };
}
