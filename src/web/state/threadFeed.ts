import { batch, signal, type Signal } from '@preact/signals';
import { API, ApiError, answerOf, client } from '../api/http';
import { getThread } from '../api/threadLifecycle';
import { refreshDirectory } from './directory';
import { noteOpenThreadRows } from './notifications';
import type { StoredThreadEvent, Thread } from '../api/types';
import { Transcript } from './transcript';

/** Rows read at open (the last ones, or those around a linked seq) and per step back: a few screens of turns. */
const PAGE = 800;
const LIST_CHANGING = new Set<string>(['turn/started', 'turn/completed', 'approval/requested', 'approval/resolved', 'thread/updated']);

export interface ThreadFeed {
  transcript: Transcript;
  /** `loading` until the backlog is shown, then `live` (or `reconnecting` while the stream is down). */
  state: Signal<'loading' | 'live' | 'reconnecting'>;
  /** The thread as `GET /threads/:id` answered at open: the header's fallback when no list holds it. */
  record: Signal<Thread | null>;
  /** True once the thread is deleted: its stream said `deleted`, or its id answered 404. */
  gone: Signal<boolean>;
  /** True while rows before the first one shown are still unread (the thread was opened at its end). */
  hasEarlier: Signal<boolean>;
  /** Reads the turns just before the first one shown and puts them in front (once at a time). */
  loadEarlier(): Promise<void>;
  /**
   * True while a thread opened at a `?seq=` link has rows after those shown that are not read yet: they are
   * read a page at a time as the reader scrolls down, and the stream starts once the last page is in.
   */
  hasLater: Signal<boolean>;
  loadLater(): Promise<void>;
  /** The entry a `?seq=` link opened the thread at, to scroll to and mark; null when opened at the end. */
  focus: Signal<string | null>;
  close(): void;
}

/**
 * A thread's rows, opened at its end (issue 31): the last rows first, widened back to the start of their
 * first whole turn, then the SSE stream resumes after the last seq shown, and earlier turns are read
 * backwards (`beforeSeq`) as the reader scrolls up. With `atSeq` (a `?seq=` link) it opens on the rows around
 * that seq instead, and the stream brings everything after them. A dropped stream reconnects with
 * Last-Event-ID (the browser's own retry) or, once closed, anew from the last seq. Rows the transcript
 * already holds are skipped, so no text is ever shown twice.
 */
export function openThreadFeed(threadId: string, atSeq?: number): ThreadFeed {
  const transcript = new Transcript();
  const state = signal<'loading' | 'live' | 'reconnecting'>('loading');
  const record = signal<Thread | null>(null);
  const gone = signal(false);
  const hasEarlier = signal(false);
  const focus = signal<string | null>(null);
  const hasLater = signal(false);
  let laterLoading: Promise<void> | undefined;
  let firstSeq = 1;
  let earlierLoading: Promise<void> | undefined;
  let source: EventSource | undefined;
  let closed = false;
  let pending: StoredThreadEvent[] = [];
  let flushScheduled = false;

  const flush = () => {
    flushScheduled = false;
    const rows = pending;
    pending = [];
    if (rows.length > 0) batch(() => transcript.apply(rows));
    noteOpenThreadRows(threadId, rows);
    // A turn opened or closed, or a question came or went: the lists' status follows at once, not at the next poll.
    if (rows.some((row) => LIST_CHANGING.has(row.type))) void refreshDirectory();
  };
  const scheduleFlush = () => {
    if (flushScheduled) return;
    flushScheduled = true;
    // One render per frame however many deltas arrive in it.
    requestAnimationFrame(() => flushScheduled && flush());
    setTimeout(() => flushScheduled && flush(), 100);
  };

  const rowsOf = (query: { afterSeq?: string; beforeSeq?: string; tail?: 'true'; limit: string }) =>
    answerOf(client.GET('/api/v1/threads/{id}/events', { params: { path: { id: threadId }, query } })).then(
      // The document's row union is the same schema as StoredThreadEvent, read through JSON Schema.
      (rows) => rows as unknown as StoredThreadEvent[],
    );

  /**
   * Rows cut anywhere start with the tail of a turn whose beginning is earlier: they are dropped (read again
   * with their turn on the next step back), or, when no turn starts in them, more is read until one does.
   */
  const widenToTurnStart = async (rows: StoredThreadEvent[]): Promise<StoredThreadEvent[]> => {
    while (!closed && rows.length > 0 && rows[0]!.seq > 1) {
      const start = rows.findIndex((row) => row.type === 'turn/started');
      if (start >= 0) return rows.slice(start);
      const before = await rowsOf({ beforeSeq: String(rows[0]!.seq), limit: String(PAGE) });
      if (before.length === 0) break;
      rows = before.concat(rows);
    }
    return rows;
  };

  const showFirst = (rows: StoredThreadEvent[]) => {
    firstSeq = rows[0]?.seq ?? 1;
    hasEarlier.value = firstSeq > 1;
  };

  const loadOpening = async () => {
    if (atSeq === undefined) {
      const rows = await widenToTurnStart(await rowsOf({ tail: 'true', limit: String(PAGE) }));
      batch(() => {
        transcript.apply(rows);
        showFirst(rows);
      });
      return;
    }
    const [before, after] = await Promise.all([
      rowsOf({ beforeSeq: String(atSeq + 1), limit: String(PAGE / 2) }).then(widenToTurnStart),
      rowsOf({ afterSeq: String(atSeq), limit: String(PAGE / 2) }),
    ]);
    const rows = before.concat(after);
    const target = before.at(-1);
    batch(() => {
      transcript.apply(rows);
      showFirst(rows);
      hasLater.value = after.length === PAGE / 2;
      focus.value = (target && transcript.entryKeyOf(target)) ?? null;
    });
  };

  const loadLater = () => {
    if (!hasLater.value || closed) return Promise.resolve();
    laterLoading ??= rowsOf({ afterSeq: String(transcript.lastSeq), limit: String(PAGE) })
      .then((rows) => {
        if (closed) return;
        batch(() => {
          transcript.apply(rows);
          hasLater.value = rows.length === PAGE;
        });
        if (!hasLater.value) listen();
      })
      .catch(() => undefined)
      .finally(() => (laterLoading = undefined));
    return laterLoading;
  };

  const loadEarlier = () => {
    if (!hasEarlier.value || closed) return Promise.resolve();
    earlierLoading ??= rowsOf({ beforeSeq: String(firstSeq), limit: String(PAGE) })
      .then(widenToTurnStart)
      .then((rows) => {
        if (closed || rows.length === 0) return;
        batch(() => {
          transcript.prepend(rows);
          showFirst(rows);
        });
      })
      .catch(() => undefined)
      .finally(() => (earlierLoading = undefined));
    return earlierLoading;
  };

  /** Reads the thread itself: a 404 means it was deleted while no stream could say so. */
  const readRecord = async () => {
    try {
      const thread = await getThread(threadId);
      if (!closed) record.value = thread;
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 404) markGone();
    }
  };
  const markGone = () => {
    flush();
    closed = true;
    source?.close();
    gone.value = true;
  };

  const listen = () => {
    if (closed) return;
    source = new EventSource(`${API}/threads/${threadId}/events/stream?afterSeq=${transcript.lastSeq}`, { withCredentials: true });
    source.onopen = () => (state.value = 'live');
    source.onmessage = (message) => {
      pending.push(JSON.parse(message.data) as StoredThreadEvent);
      scheduleFlush();
    };
    // The server says so before it closes the stream of a deleted thread (issue 28).
    source.addEventListener('deleted', markGone);
    source.onerror = () => {
      if (closed) return;
      state.value = 'reconnecting';
      if (source?.readyState === EventSource.CLOSED) {
        flush();
        setTimeout(() => void readRecord().then(listen), 1000);
      }
    };
  };

  void readRecord();
  loadOpening()
    .catch(() => undefined)
    .then(() => {
      if (!closed) state.value = 'live';
      // Opened at a link far from the end: the stream waits until the reader has scrolled to the last page.
      if (!hasLater.value) listen();
    });

  return {
    transcript,
    state,
    record,
    gone,
    hasEarlier,
    loadEarlier,
    hasLater,
    loadLater,
    focus,
    close: () => {
      closed = true;
      source?.close();
    },
  };
}
