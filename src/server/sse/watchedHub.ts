import { defer, finalize } from 'rxjs';
import type { StoredThreadEvent } from '../../store/eventStore';
import type { EventHub } from './eventHub';

/** An EventHub that also says which threads have readers here, and the last seq published for each. */
export interface WatchedHub extends EventHub {
  watchedThreads(): string[];
  isWatched(threadId: string): boolean;
  /** Highest seq published for a watched thread since it gained readers; undefined before any. */
  publishedSeq(threadId: string): number | undefined;
}

/**
 * Wraps a hub so the replica feed (server/replicas/replicaFeed.ts) reads rows written on other replicas only
 * for threads someone here streams, from where this hub left off.
 */
export function watchedHub(hub: EventHub): WatchedHub {
  const readers = new Map<string, number>();
  const published = new Map<string, number>();
  return {
    publish(rows: readonly StoredThreadEvent[]) {
      for (const row of rows)
        if (readers.has(row.threadId) && row.seq > (published.get(row.threadId) ?? 0)) published.set(row.threadId, row.seq);
      hub.publish(rows);
    },
    rowsOf$: (threadId) =>
      defer(() => {
        readers.set(threadId, (readers.get(threadId) ?? 0) + 1);
        return hub.rowsOf$(threadId).pipe(
          finalize(() => {
            const left = (readers.get(threadId) ?? 1) - 1;
            if (left > 0) return void readers.set(threadId, left);
            readers.delete(threadId);
            published.delete(threadId);
          }),
        );
      }),
    announceDeleted: (threadId) => hub.announceDeleted(threadId),
    deleted$: (threadId) => hub.deleted$(threadId),
    subscriberCount: () => hub.subscriberCount(),
    close: () => hub.close(),
    watchedThreads: () => [...readers.keys()],
    isWatched: (threadId) => readers.has(threadId),
    publishedSeq: (threadId) => published.get(threadId),
  };
}
