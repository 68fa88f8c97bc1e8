import { batch, signal, type Signal } from '@preact/signals';
import type { StoredThreadEvent } from '../api/types';
import type { Transcript } from './transcript';
import { PAGE, readOpeningRows, readRows, widenToTurnStart } from './threadRows';

/** The part of a thread's rows a feed has read, and the reads that widen it (issue 31). */
export interface ThreadPages {
  /** Ends once the opening rows are in the transcript (it rejects when they could not be read). */
  opening: Promise<void>;
  hasEarlier: Signal<boolean>;
  loadEarlier(): Promise<void>;
  hasLater: Signal<boolean>;
  loadLater(): Promise<void>;
  focus: Signal<string | null>;
}

/**
 * Opens a thread's rows at its end, or around `atSeq`, and reads the pages before and after them on demand
 * (once at a time each); `onLastPage`: the rows after a `?seq=` link are all read, so the stream can start.
 */
export function openThreadPages(
  threadId: string,
  atSeq: number | undefined,
  transcript: Transcript,
  ended: () => boolean,
  onLastPage: () => void,
): ThreadPages {
  const hasEarlier = signal(false);
  const focus = signal<string | null>(null);
  const hasLater = signal(false);
  let laterLoading: Promise<void> | undefined;
  let firstSeq = 1;
  let earlierLoading: Promise<void> | undefined;

  const showFirst = (rows: StoredThreadEvent[]) => {
    firstSeq = rows[0]?.seq ?? 1;
    hasEarlier.value = firstSeq > 1;
  };

  const loadOpening = async () => {
    const { rows, after, target } = await readOpeningRows(threadId, atSeq, ended);
    batch(() => {
      transcript.apply(rows);
      showFirst(rows);
      if (after === undefined) return;
      hasLater.value = after.length === PAGE / 2;
      focus.value = (target && transcript.entryKeyOf(target)) ?? null;
    });
  };

  const loadLater = () => {
    if (!hasLater.value || ended()) return Promise.resolve();
    laterLoading ??= readRows(threadId, { afterSeq: String(transcript.lastSeq), limit: String(PAGE) })
      .then((rows) => {
        if (ended()) return;
        batch(() => {
          transcript.apply(rows);
          hasLater.value = rows.length === PAGE;
        });
        if (!hasLater.value) onLastPage();
      })
      .catch(() => undefined)
      .finally(() => (laterLoading = undefined));
    return laterLoading;
  };

  const loadEarlier = () => {
    if (!hasEarlier.value || ended()) return Promise.resolve();
    earlierLoading ??= readRows(threadId, { beforeSeq: String(firstSeq), limit: String(PAGE) })
      .then((rows) => widenToTurnStart(threadId, rows, ended))
      .then((rows) => {
        if (ended() || rows.length === 0) return;
        batch(() => {
          transcript.prepend(rows);
          showFirst(rows);
        });
      })
      .catch(() => undefined)
      .finally(() => (earlierLoading = undefined));
    return earlierLoading;
  };

  return { opening: loadOpening(), hasEarlier, loadEarlier, hasLater, loadLater, focus };
}
