import { batch, signal, type Signal } from '@preact/signals';
import { API, ApiError, answerOf, client } from '../api/http';
import { getThread } from '../api/threadLifecycle';
import { refreshDirectory } from './directory';
import { noteOpenThreadRows } from './notifications';
import type { StoredThreadEvent, Thread } from '../api/types';
import { Transcript } from './transcript';

const PAGE = 1000;
const LIST_CHANGING = new Set<string>(['turn/started', 'turn/completed', 'approval/requested', 'approval/resolved', 'thread/updated']);
/** Pages of the backlog fetched at once: seqs are dense (1, 2, 3…), so page k starts after seq k·PAGE. */
const PARALLEL_PAGES = 4;

export interface ThreadFeed {
  transcript: Transcript;
  /** `loading` until the backlog is shown, then `live` (or `reconnecting` while the stream is down). */
  state: Signal<'loading' | 'live' | 'reconnecting'>;
  /** The thread as `GET /threads/:id` answered at open: the header's fallback when no list holds it. */
  record: Signal<Thread | null>;
  /** True once the thread is deleted: its stream said `deleted`, or its id answered 404. */
  gone: Signal<boolean>;
  close(): void;
}

/**
 * A thread's rows from seq 1, then live. The backlog comes in pages (fetched a few at a time, applied in
 * order), then the SSE stream resumes after the last seq shown; a dropped stream reconnects with
 * Last-Event-ID (the browser's own retry) or, once closed, anew from the last seq. Rows the transcript
 * already holds are skipped, so no text is ever shown twice.
 */
export function openThreadFeed(threadId: string): ThreadFeed {
  const transcript = new Transcript();
  const state = signal<'loading' | 'live' | 'reconnecting'>('loading');
  const record = signal<Thread | null>(null);
  const gone = signal(false);
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

  const loadBacklog = async () => {
    for (let from = 0; !closed; from += PAGE * PARALLEL_PAGES) {
      const pages = await Promise.all(
        Array.from({ length: PARALLEL_PAGES }, (_, k) =>
          answerOf(
            client.GET('/api/v1/threads/{id}/events', {
              params: { path: { id: threadId }, query: { afterSeq: String(from + k * PAGE), limit: String(PAGE) } },
            }),
          ).then(
            // The document's row union is the same schema as StoredThreadEvent, read through JSON Schema.
            (rows) => rows as unknown as StoredThreadEvent[],
          ),
        ),
      );
      batch(() => pages.forEach((rows) => transcript.apply(rows)));
      if (pages.some((rows) => rows.length < PAGE)) return;
    }
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
  loadBacklog()
    .catch(() => undefined)
    .then(() => {
      if (!closed) state.value = 'live';
      listen();
    });

  return {
    transcript,
    state,
    record,
    gone,
    close: () => {
      closed = true;
      source?.close();
    },
  };
}
