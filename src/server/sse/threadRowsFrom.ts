import { NEVER, Observable } from 'rxjs';
import type { EventStore, StoredThreadEvent } from '../../store/eventStore';
import { rowJsonOf } from '../../store/pageJson';
import { sseEventText, sseEventTextOf, type SseChunk } from './sseEventText';

export interface ThreadRowsDeps {
  /** The store; one that keeps rows as text (`listRowJson`) is read without building row objects. */
  store: Pick<EventStore, 'list'>;
  /** Rows as they are stored (the event hub). */
  live$: Observable<StoredThreadEvent>;
  /** Most rows a store read takes. */
  pageSize: number;
  /** About the most characters of SSE text one store read makes: a page of long rows holds fewer rows. */
  pageChars?: number;
}

/**
 * Whether the reader takes rows now. While `paused()` no row is emitted (live rows are dropped, a store read
 * waits); `resumed$` says the reader takes rows again, and the rows missed meanwhile are read from the store.
 */
export interface RowDemand {
  paused(): boolean;
  resumed$: Observable<unknown>;
}

/** Rows of the first store read of a catch-up; each page doubles the next, up to `pageSize` (and `pageChars`). */
const FIRST_PAGE_ROWS = 8;
/** The most rows of a catch-up page, whatever `pageSize` allows: what one reader's read holds (issue 31). */
const CATCH_UP_PAGE_MAX_ROWS = 256;
const DEFAULT_PAGE_CHARS = 256 * 1024;

const ALWAYS: RowDemand = { paused: () => false, resumed$: NEVER };

/**
 * Every row of a thread with `seq > afterSeq`, then every row stored later, each exactly once and in seq
 * order, with no gap between the backlog and the live rows, as SSE text: a page of the store is one chunk,
 * made from the store's own row texts (no row object is built to be serialised again), a live row another.
 *
 *   live$   ----------4-----5--7-------
 *   store   1 2 3 (backlog read once subscribed; 6 stored but its live row raced behind 7)
 *   result  --123-----4-----5--67-----   (7 arrives after a gap: 6 and 7 are read from the store)
 *
 * The live rows are subscribed to before the backlog is read. A live row that does not follow the last
 * emitted seq, or that arrives while a store read runs, is not trusted: the store is read (again) from the
 * last emitted seq, so a race can never skip a seq, and no live row is queued meanwhile.
 *
 * Backpressure: a page is read only once the reader took the one before it (not `paused()`; else after
 * `resumed$`), so a catch-up holds one page, however long the thread and however slow the reader, and reads
 * each row once. A paused reader holds nothing here (live rows are dropped, not queued): the store is its
 * buffer, read from after the resume.
 *
 *   live$    --4--5--6--7-----8--
 *   paused   ^^^^^^^^^^         (4 is taken and pauses the reader; 5, 6, 7 are dropped)
 *   resumed$ ------------r-----
 *   result   --4---------(567)8-  (5, 6, 7 read back from the store after 4, as one page)
 *
 * The rows complete when `live$` does (server shutdown), paused or not; a store read that fails errors them.
 */
export function threadRowsFrom(deps: ThreadRowsDeps, threadId: string, afterSeq: number, demand: RowDemand = ALWAYS): Observable<SseChunk> {
  const maxRows = Math.max(1, Math.min(deps.pageSize, CATCH_UP_PAGE_MAX_ROWS));
  const pageChars = deps.pageChars ?? DEFAULT_PAGE_CHARS;
  return new Observable<SseChunk>((subscriber) => {
    let last = afterSeq;
    /** The highest seq the hub published: rows up to it are in the store. */
    let stored = afterSeq;
    let reading = false;
    let ended = false;
    let wake: (() => void) | undefined;
    const taken = () => (demand.paused() ? new Promise<void>((resolve) => (wake = resolve)) : undefined);

    // Reads from `last` until a short page (the store's end), then again while rows were published meanwhile
    // (unless a pass found nothing: rows the hub published but the store no longer has, a deleted thread's).
    const catchUp = async () => {
      reading = true;
      try {
        let passFrom: number;
        do {
          passFrom = last;
          let size = Math.min(FIRST_PAGE_ROWS, maxRows);
          for (;;) {
            await taken(); // the page before this one is in the reader's hands (or the socket's own buffer)
            if (ended) return;
            const rows = await rowJsonOf(deps.store, threadId, { afterSeq: last, limit: size });
            if (ended) return;
            const text = rows.map((row) => sseEventTextOf(row.seq, row.json)).join('');
            if (rows.length > 0) {
              last = rows[rows.length - 1]!.seq;
              subscriber.next({ lastSeq: last, text });
            }
            if (rows.length < size) break;
            // Pages grow while short of the character budget and shrink past it (long rows: fewer a page).
            if (text.length > pageChars) size = Math.max(1, size >> 1);
            else if (2 * text.length <= pageChars) size = Math.min(2 * size, maxRows);
          }
        } while (stored > last && last > passFrom);
        reading = false;
      } catch (error) {
        ended = true;
        subscriber.error(error);
      }
    };

    const live = deps.live$.subscribe({
      next: (row) => {
        stored = Math.max(stored, row.seq);
        if (reading || demand.paused() || row.seq <= last) return;
        if (row.seq > last + 1) return void catchUp();
        last = row.seq;
        subscriber.next({ lastSeq: row.seq, text: sseEventText(row) });
      },
      error: (error: unknown) => subscriber.error(error),
      complete: () => {
        ended = true;
        subscriber.complete();
      },
    });
    const resumed = demand.resumed$.subscribe(() => {
      if (demand.paused()) return; // filled again already (a write queued before the drain): the next drain
      if (wake) {
        const resume = wake;
        wake = undefined;
        resume();
      } else if (!reading && stored > last) void catchUp();
    });
    if (!ended) void catchUp();
    return () => {
      ended = true;
      live.unsubscribe();
      resumed.unsubscribe();
      wake?.();
    };
  });
}
