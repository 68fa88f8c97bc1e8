import type { RefObject } from 'preact';
import { useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { ThreadFeed } from '../state/threadFeed';
import type { TranscriptEntry } from '../state/transcriptModel';

/** A turn's height before it was ever on screen, until some are measured (then their average). */
const FIRST_ESTIMATE = 200;
/** Rendered beyond the viewport on each side, so a quick scroll finds turns already there. */
const OVERSCAN = 1000;
/** Earlier turns are read once the reader is this close to the top of what is loaded. */
const NEAR_TOP = 1500;
/** A reader this close to the bottom is following the latest rows. */
const AT_BOTTOM = 48;

/** Which entries are in the DOM, the spacers' heights around them, and the controls the view offers. */
export interface TranscriptWindow {
  start: number;
  end: number;
  above: number;
  below: number;
  atLatest: boolean;
  /** Watches a rendered entry's box; the returned function stops watching it. */
  measure(key: string, element: Element): () => void;
  jumpToLatest(): void;
}

/** Where the reader is, as the entry at the viewport's top and how far into it: it survives rows above changing. */
interface Anchor {
  key: string;
  offset: number;
}

interface Layout {
  offsets: number[];
  index: Map<string, number>;
  entries: TranscriptEntry[];
  /** Where the first entry starts inside the scroller's content (its padding and anything above the rows). */
  origin: number;
}

/**
 * Windowing by turn (issue 31). Heights are measured as entries render (ResizeObserver) and estimated for the
 * rest; the scroll position is kept as an anchor entry, so earlier turns put in front, estimates replaced by
 * measurements, or rows growing below never move what the reader sees. Pinned to the bottom, it follows
 * the latest rows; a link's focus (`?seq=`) starts it on that entry instead.
 */
export function useTranscriptWindow(
  scroller: RefObject<HTMLDivElement | null>,
  entries: TranscriptEntry[],
  feed: ThreadFeed,
  focus: string | null,
): TranscriptWindow {
  const heights = useRef(new Map<string, number>()).current;
  const watched = useRef(new Map<Element, string>()).current;
  const pinned = useRef(true);
  const anchor = useRef<Anchor | null>(null);
  /** Where this code last scrolled to: its own scroll events keep the anchor (estimates may have changed since). */
  const setTop = useRef(-1);
  const layout = useRef<Layout>({ offsets: [0], index: new Map(), entries: [], origin: 0 });
  const [viewport, setViewport] = useState({ top: 0, height: 0 });
  const [atLatest, setAtLatest] = useState(true);
  const [, remeasured] = useState(0);

  const observer = useMemo(
    () =>
      new ResizeObserver((records) => {
        let changed = false;
        for (const record of records) {
          const key = watched.get(record.target);
          if (key === undefined) continue;
          const height = (record.target as HTMLElement).offsetHeight;
          if (heights.get(key) !== height) {
            heights.set(key, height);
            changed = true;
          }
        }
        if (changed) remeasured((count) => count + 1);
      }),
    [],
  );

  layout.current = layoutOf(entries, heights, layout.current.origin);
  const { offsets } = layout.current;
  const total = offsets[entries.length]!;

  const height = viewport.height || 800;
  const anchoredTop = topOf(anchor.current, layout.current);
  const top = pinned.current ? Math.max(0, total - height) : (anchoredTop ?? viewport.top);
  const { start, end } = rangeOf(offsets, top, height);

  // A link's row: stop following the bottom and start on it.
  useLayoutEffect(() => {
    if (focus === null) return;
    pinned.current = false;
    anchor.current = { key: focus, offset: -16 };
    setAtLatest(false);
  }, [focus]);

  // After every render: keep the reader where they were, and read earlier turns when near the top.
  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const firstRow = element.querySelector('.transcript-spacer');
    if (firstRow) layout.current.origin = firstRow.getBoundingClientRect().top - element.getBoundingClientRect().top + element.scrollTop;
    if (pinned.current) element.scrollTop = element.scrollHeight;
    else {
      const target = topOf(anchor.current, layout.current);
      if (target !== undefined && Math.abs(element.scrollTop - layout.current.origin - target) > 1)
        element.scrollTop = target + layout.current.origin;
    }
    setTop.current = element.scrollTop;
    if (element.scrollTop - layout.current.origin < NEAR_TOP && feed.hasEarlier.value) void feed.loadEarlier();
    if (element.scrollHeight - element.scrollTop - element.clientHeight < NEAR_TOP && feed.hasLater.value) void feed.loadLater();
  });

  useLayoutEffect(() => {
    const element = scroller.current!;
    const onScroll = () => {
      const fromBottom = element.scrollHeight - element.scrollTop - element.clientHeight;
      // At the bottom of what is read is not following the latest while later rows are still unread.
      const atBottom = fromBottom < AT_BOTTOM && !feed.hasLater.value;
      pinned.current = atBottom;
      setAtLatest(atBottom);
      const { offsets: at, entries: shown, origin } = layout.current;
      const y = element.scrollTop - origin;
      const ownScroll = Math.abs(element.scrollTop - setTop.current) < 1;
      let first = 0;
      while (first < shown.length - 1 && at[first + 1]! <= y) first += 1;
      if (atBottom || shown.length === 0) anchor.current = null;
      else if (!ownScroll || !anchor.current) anchor.current = { key: shown[first]!.key, offset: y - at[first]! };
      setViewport({ top: y, height: element.clientHeight });
      if (y < NEAR_TOP && feed.hasEarlier.value) void feed.loadEarlier();
      if (fromBottom < NEAR_TOP && feed.hasLater.value) void feed.loadLater();
    };
    const sized = new ResizeObserver(() => setViewport((view) => ({ ...view, height: element.clientHeight })));
    sized.observe(element);
    element.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      element.removeEventListener('scroll', onScroll);
      sized.disconnect();
      observer.disconnect();
    };
  }, []);

  return {
    start,
    end,
    above: offsets[start]!,
    below: total - offsets[end]!,
    atLatest,
    measure: (key, element) => {
      watched.set(element, key);
      observer.observe(element);
      return () => {
        watched.delete(element);
        observer.unobserve(element);
      };
    },
    jumpToLatest: () => {
      pinned.current = true;
      anchor.current = null;
      setAtLatest(true);
      remeasured((count) => count + 1);
    },
  };
}

/** Offsets of every entry from measured heights, or the average of those measured so far. */
function layoutOf(entries: TranscriptEntry[], heights: ReadonlyMap<string, number>, origin: number): Layout {
  let measuredSum = 0;
  for (const height of heights.values()) measuredSum += height;
  const estimate = heights.size > 0 ? measuredSum / heights.size : FIRST_ESTIMATE;
  const offsets = new Array<number>(entries.length + 1);
  const index = new Map<string, number>();
  offsets[0] = 0;
  entries.forEach((entry, at) => {
    index.set(entry.key, at);
    offsets[at + 1] = offsets[at]! + (heights.get(entry.key) ?? estimate);
  });
  return { offsets, index, entries, origin };
}

/** The entries to render: those in the viewport at `top`, and `OVERSCAN` beyond it on each side. */
function rangeOf(offsets: readonly number[], top: number, height: number): { start: number; end: number } {
  const count = offsets.length - 1;
  let start = 0;
  while (start < count && offsets[start + 1]! < top - OVERSCAN) start += 1;
  let end = start;
  while (end < count && offsets[end]! < top + height + OVERSCAN) end += 1;
  return { start, end };
}

/** The anchor's position in the rows' coordinates, once its entry is known. */
function topOf(anchor: Anchor | null, layout: Layout): number | undefined {
  if (!anchor) return undefined;
  const at = layout.index.get(anchor.key);
  return at === undefined ? undefined : layout.offsets[at]! + anchor.offset;
}
