import {
  concat,
  concatMap,
  defer,
  EMPTY,
  filter,
  from,
  map,
  merge,
  NEVER,
  of,
  Subject,
  takeUntil,
  takeWhile,
  tap,
  type Observable,
} from 'rxjs';
import type { EventStore, StoredThreadEvent } from '../../store/eventStore';

export interface ThreadRowsDeps {
  store: Pick<EventStore, 'list'>;
  /** Rows as they are stored (the event hub). */
  live$: Observable<StoredThreadEvent>;
  pageSize: number;
}

/**
 * Whether the reader takes rows now. While `paused()` no row is emitted (live rows are dropped, a store read
 * stops); `resumed$` says the reader takes rows again, and the rows missed meanwhile are read from the store.
 */
export interface RowDemand {
  paused(): boolean;
  resumed$: Observable<unknown>;
}

/**
 * Rows of the first store read after a start or a resume; each page the reader takes whole doubles the next,
 * up to `pageSize`. A reader that pauses again at once (a slow one: a full socket after a row or two) then
 * re-reads a few rows, not a full page it drops at the pause: with 16 KiB rows, re-reading ~900 rows for each
 * resume (45–260 ms a read) left a slow reader never catching up.
 */
const FIRST_PAGE_ROWS = 8;

const ALWAYS: RowDemand = { paused: () => false, resumed$: NEVER };
const START = 'start' as const;
const RESUME = 'resume' as const;

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
 *
 * A paused reader holds nothing here (live rows are dropped, not queued): the store is its buffer.
 *
 *   live$    --4--5--6--7-----8--
 *   paused   ^^^^^^^^^^         (4 is taken and pauses the reader; 5, 6, 7 are dropped)
 *   resumed$ ------------r-----
 *   result   --4---------567--8-  (5, 6, 7 read back from the store after 4)
 *
 * The rows complete when `live$` does (server shutdown), paused or not.
 */
export function threadRowsFrom(
  deps: ThreadRowsDeps,
  threadId: string,
  afterSeq: number,
  demand: RowDemand = ALWAYS,
): Observable<StoredThreadEvent> {
  return defer(() => {
    let last = afterSeq;
    // A row with seq > last was dropped or left unread while paused: the next resume must read the store.
    let behind = false;
    const readFromLast$ = defer(() => {
      behind = false;
      return readPages(deps, threadId, last);
    }).pipe(
      takeWhile(() => {
        if (!demand.paused()) return true;
        behind = true; // the rest of this read is owed to the next resume
        return false;
      }),
    );
    const liveEnded = new Subject<void>();
    // live$ first: merge subscribes in order, so the hub listens before the backlog read starts.
    return merge(
      deps.live$.pipe(tap({ complete: () => liveEnded.next() })),
      of(START),
      demand.resumed$.pipe(
        map(() => RESUME),
        takeUntil(liveEnded),
      ),
    ).pipe(
      concatMap((signal) =>
        defer(() => {
          // Paused again already (a read queued before this resume filled the socket): the next drain resumes.
          if (signal === RESUME) return behind && !demand.paused() ? readFromLast$ : EMPTY;
          if (demand.paused()) {
            if (signal === START || signal.seq > last) behind = true;
            return EMPTY;
          }
          if (signal === START || signal.seq > last + 1) return readFromLast$;
          return signal.seq === last + 1 ? of(signal) : EMPTY;
        }),
      ),
      filter((row) => row.seq > last),
      tap((row) => (last = row.seq)),
    );
  });
}

/**
 * Pages of the store from `afterSeq`, growing from FIRST_PAGE_ROWS to `pageSize` as they are taken; the next
 * page is read only once this one's rows are taken, and a short page is the thread's end.
 */
function readPages(
  deps: ThreadRowsDeps,
  threadId: string,
  afterSeq: number,
  size = Math.min(FIRST_PAGE_ROWS, deps.pageSize),
): Observable<StoredThreadEvent> {
  return from(deps.store.list(threadId, { afterSeq, limit: size })).pipe(
    concatMap((rows) => {
      const next = Math.min(2 * size, deps.pageSize);
      return concat(from(rows), rows.length < size ? EMPTY : defer(() => readPages(deps, threadId, rows[rows.length - 1]!.seq, next)));
    }),
  );
}
