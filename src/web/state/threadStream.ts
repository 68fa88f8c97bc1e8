import { API } from '../api/http';
import type { StoredThreadEvent } from '../api/types';

/** What a thread's SSE stream tells its feed. */
export interface ThreadStreamListener {
  opened(): void;
  /** Rows as they arrive, several per frame; the feed shows them once per frame (`rowBatcher`). */
  row(row: StoredThreadEvent): void;
  /** The server says so before it closes the stream of a deleted thread (issue 28). */
  deleted(): void;
  /** `final`: the browser gave up retrying (`readyState` CLOSED); otherwise it retries with Last-Event-ID itself. */
  dropped(final: boolean): void;
}

/** The connection of a thread feed: its rows after `afterSeq` as the server stores them. */
export function openThreadStream(threadId: string, afterSeq: number, listener: ThreadStreamListener): { close(): void } {
  const source = new EventSource(`${API}/threads/${threadId}/events/stream?afterSeq=${afterSeq}`, { withCredentials: true });
  source.onopen = () => listener.opened();
  source.onmessage = (message) => listener.row(JSON.parse(message.data) as StoredThreadEvent);
  source.addEventListener('deleted', () => listener.deleted());
  source.onerror = () => listener.dropped(source.readyState === EventSource.CLOSED);
  return { close: () => source.close() };
}

/** Rows collected and shown together: one render per frame however many deltas arrive in it. */
export function rowBatcher(show: (rows: StoredThreadEvent[]) => void): { add(row: StoredThreadEvent): void; flush(): void } {
  let pending: StoredThreadEvent[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    const rows = pending;
    pending = [];
    show(rows);
  };
  return {
    add(row) {
      pending.push(row);
      if (scheduled) return;
      scheduled = true;
      requestAnimationFrame(() => scheduled && flush());
      setTimeout(() => scheduled && flush(), 100);
    },
    flush,
  };
}
