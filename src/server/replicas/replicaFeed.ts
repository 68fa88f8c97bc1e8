import type { EventStore } from '../../store/eventStore';
import type { WatchedHub } from '../sse/watchedHub';

export interface ReplicaFeedDeps {
  store: Pick<EventStore, 'list'>;
  /** Each thread's last seq in the store, for threads read in a catch-up. */
  lastSeqs(threadIds: readonly string[]): Promise<Map<string, number>>;
  hub: WatchedHub;
  /** Whether a thread is deleted (or its delete began) in the shared registry. */
  isDeleted(threadId: string): Promise<boolean>;
  replicaId: string;
  pageSize: number;
  log(message: string): void;
}

/**
 * Rows appended through other replicas, published to this replica's hub so its SSE readers get them. A
 * notification (`<origin> <first> <last> <thread>`, sent at commit) is only a hint: the rows are read from
 * the store by cursor, from where this hub left off (or the hinted first seq), and SSE readers read any gap
 * themselves (threadRowsFrom), so a lost notification delays rows until the next hint or `catchUp`, never
 * loses them. Reads of one thread run one after another; rows this replica appended itself are skipped
 * (publishingStore already published them).
 */
export function createReplicaFeed(deps: ReplicaFeedDeps) {
  const reading = new Map<string, Promise<void>>();

  const publishUpTo = (threadId: string, lastSeq: number, firstSeq: number) => {
    const previous = reading.get(threadId) ?? Promise.resolve();
    const next = previous.then(async () => {
      if (!deps.hub.isWatched(threadId)) return;
      let after = deps.hub.publishedSeq(threadId) ?? firstSeq - 1;
      while (after < lastSeq) {
        const rows = await deps.store.list(threadId, { afterSeq: after, limit: Math.min(deps.pageSize, lastSeq - after) });
        if (rows.length === 0) return;
        deps.hub.publish(rows);
        after = rows[rows.length - 1]!.seq;
      }
    });
    const settled = next.catch((error: unknown) =>
      deps.log(`replica feed: reading ${threadId} failed: ${error instanceof Error ? error.message : String(error)}`),
    );
    reading.set(threadId, settled);
    void settled.then(() => {
      if (reading.get(threadId) === settled) reading.delete(threadId);
    });
    return settled;
  };

  return {
    /** A payload of channel `ats_events`. */
    notified(payload: string): void {
      const [origin, first, last, threadId] = payload.split(' ');
      if (origin === deps.replicaId || !threadId || !deps.hub.isWatched(threadId)) return;
      // `0 0`: the thread was deleted through that replica; its readers here are told once their reads end.
      if (Number(last) === 0) return void (reading.get(threadId) ?? Promise.resolve()).then(() => deps.hub.announceDeleted(threadId));
      void publishUpTo(threadId, Number(last), Number(first));
    },
    /**
     * Every watched thread whose store is ahead of this hub gets its missing rows (after a reconnect of the
     * listener, and on a timer against notifications lost any other way). A thread this hub published
     * nothing for yet gets its last row, which sends any reader that is behind to the store for the rest.
     * A watched thread without rows may be one deleted through another replica whose notice was lost: its
     * readers are told when the registry has no such thread.
     */
    async catchUp(): Promise<void> {
      const watched = deps.hub.watchedThreads();
      if (watched.length === 0) return;
      const heads = await deps.lastSeqs(watched);
      for (const [threadId, lastSeq] of heads) if (lastSeq === 0 && (await deps.isDeleted(threadId))) deps.hub.announceDeleted(threadId);
      await Promise.all(
        [...heads].map(([threadId, lastSeq]) => {
          const published = deps.hub.publishedSeq(threadId);
          return lastSeq > (published ?? 0) ? publishUpTo(threadId, lastSeq, published === undefined ? lastSeq : published + 1) : undefined;
        }),
      );
    },
  };
}
export type ReplicaFeed = ReturnType<typeof createReplicaFeed>;
