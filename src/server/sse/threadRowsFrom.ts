import { concatMap, defer, EMPTY, expand, filter, from, merge, of, tap, type Observable } from 'rxjs';
import type { EventStore, StoredThreadEvent } from '../../store/eventStore';

export interface ThreadRowsDeps {
  store: Pick<EventStore, 'list'>;
  /** Rows as they are stored (the event hub). */
  live$: Observable<StoredThreadEvent>;
  pageSize: number;
}

/**
 * Every row of a thread with `seq > afterSeq`, then every row stored later, each exactly once and in seq
 * order, with no gap between the backlog and the live rows:
 *
 *   live$   ----------4-----5--7-------
 *   store   1 2 3 (backlog read once subscribed; 6 stored but its live row raced behind 7)
 *   result  --1-2-3---4-----5--6-7-----   (7 arrives after a gap: 6 is read back from the store)
 *
 * The live rows are subscribed to before the backlog is read; a live row that does not follow the last
 * emitted seq triggers a store read from that seq instead of being trusted, so a race can never skip a seq.
 */
export function threadRowsFrom(deps: ThreadRowsDeps, threadId: string, afterSeq: number): Observable<StoredThreadEvent> {
  return defer(() => {
    let last = afterSeq;
    const readFromLast$ = defer(() => readPages(deps, threadId, last));
    // live$ first: merge subscribes in order, so the hub listens before the backlog read starts.
    return merge(deps.live$, of(undefined)).pipe(
      concatMap((row) =>
        defer(() => {
          if (row === undefined || row.seq > last + 1) return readFromLast$;
          return row.seq === last + 1 ? of(row) : EMPTY;
        }),
      ),
      filter((row) => row.seq > last),
      tap((row) => (last = row.seq)),
    );
  });
}

function readPages(deps: ThreadRowsDeps, threadId: string, afterSeq: number): Observable<StoredThreadEvent> {
  const page = (after: number) => from(deps.store.list(threadId, { afterSeq: after, limit: deps.pageSize }));
  return page(afterSeq).pipe(
    expand((rows) => (rows.length < deps.pageSize ? EMPTY : page(rows[rows.length - 1]!.seq))),
    concatMap((rows) => rows),
  );
}
