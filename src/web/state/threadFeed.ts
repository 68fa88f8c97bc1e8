import { batch, signal, type Signal } from '@preact/signals';
import { ApiError } from '../api/http';
import { getThread } from '../api/threadLifecycle';
import { refreshDirectory } from './directory';
import { noteOpenThreadRows } from './notifications';
import type { Thread } from '../api/types';
import { Transcript } from './transcript';
import { nextFeedStatus, OPENING_FEED, type FeedEvent, type FeedPhase } from './threadFeedStatus';
import { openThreadPages } from './threadPages';
import { openThreadStream, rowBatcher } from './threadStream';

const LIST_CHANGING = new Set<string>(['turn/started', 'turn/completed', 'approval/requested', 'approval/resolved', 'thread/updated']);

export interface ThreadFeed {
  transcript: Transcript;
  /** `loading` until the backlog is shown, then `live` (or `reconnecting` while the stream is down). */
  state: Signal<FeedPhase>;
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
  let status = OPENING_FEED;
  const state = signal<FeedPhase>(status.phase);
  const record = signal<Thread | null>(null);
  const gone = signal(false);
  let stream: { close(): void } | undefined;
  const ended = () => status.ended !== null;

  const arriving = rowBatcher((rows) => {
    if (rows.length > 0) batch(() => transcript.apply(rows));
    noteOpenThreadRows(threadId, rows);
    // A turn opened or closed, or a question came or went: the lists' status follows at once, not at the next poll.
    if (rows.some((row) => LIST_CHANGING.has(row.type))) void refreshDirectory();
  });

  const dispatch = (event: FeedEvent) => {
    const next = nextFeedStatus(status, event);
    status = next.status;
    for (const effect of next.effects) {
      if (effect === 'flush') arriving.flush();
      if (effect === 'closeStream') stream?.close();
      if (effect === 'reconnectLater') setTimeout(() => void readRecord().then(listen), 1000);
    }
    batch(() => {
      state.value = status.phase;
      if (status.ended === 'gone') gone.value = true;
    });
  };

  /** Reads the thread itself: a 404 means it was deleted while no stream could say so. */
  const readRecord = async () => {
    try {
      const thread = await getThread(threadId);
      if (!ended()) record.value = thread;
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 404) dispatch({ type: 'deleted' });
    }
  };

  const listen = () => {
    if (ended()) return;
    stream = openThreadStream(threadId, transcript.lastSeq, {
      opened: () => dispatch({ type: 'opened' }),
      row: arriving.add,
      deleted: () => dispatch({ type: 'deleted' }),
      dropped: (final) => dispatch({ type: 'dropped', final }),
    });
  };

  void readRecord();
  const pages = openThreadPages(threadId, atSeq, transcript, ended, () => listen());
  pages.opening
    .catch(() => undefined)
    .then(() => {
      dispatch({ type: 'backlogShown' });
      // Opened at a link far from the end: the stream waits until the reader has scrolled to the last page.
      if (!pages.hasLater.value) listen();
    });

  return {
    transcript,
    state,
    record,
    gone,
    hasEarlier: pages.hasEarlier,
    loadEarlier: pages.loadEarlier,
    hasLater: pages.hasLater,
    loadLater: pages.loadLater,
    focus: pages.focus,
    close: () => dispatch({ type: 'close' }),
  };
}
