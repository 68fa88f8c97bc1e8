import { useCallback, useLayoutEffect, useRef, useState } from 'preact/hooks';

/** Rows rendered beyond each edge of the viewport, so a quick scroll rarely shows an empty strip. */
const MARGIN_ROWS = 12;

export interface VirtualRows {
  /** The scrolling element's ref. */
  scroller: { current: HTMLElement | null };
  /** The first and one-past-last row index to render. */
  start: number;
  end: number;
  /** Pixels above the first rendered row and below the last: the rows not rendered. */
  before: number;
  after: number;
  /** Scrolls so the row is at the top (a file chosen in the list), or just into view (a keyboard move). */
  scrollToRow(index: number, mode: 'top' | 'nearest'): void;
}

/**
 * A window over `count` rows of one fixed height: only the rows in the viewport, plus a margin, are rendered
 * (issue 38: a 50,000-line diff stays under 2,000 elements). The height is fixed in CSS, so no row is
 * measured and a jump to any row is one multiplication.
 */
export function useVirtualRows(count: number, rowHeight: number): VirtualRows {
  const scroller = useRef<HTMLElement | null>(null);
  const [view, setView] = useState({ top: 0, height: 800 });
  const measure = useCallback(() => {
    const element = scroller.current;
    if (element) setView({ top: element.scrollTop, height: element.clientHeight || 800 });
  }, []);
  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    measure();
    let frame = 0;
    const onScroll = () => {
      if (frame) return;
      frame = requestAnimationFrame(() => ((frame = 0), measure()));
    };
    element.addEventListener('scroll', onScroll, { passive: true });
    const resize = new ResizeObserver(measure);
    resize.observe(element);
    return () => {
      element.removeEventListener('scroll', onScroll);
      resize.disconnect();
      cancelAnimationFrame(frame);
    };
  }, [measure]);
  const start = Math.max(0, Math.floor(view.top / rowHeight) - MARGIN_ROWS);
  const end = Math.min(count, Math.ceil((view.top + view.height) / rowHeight) + MARGIN_ROWS);
  const scrollToRow = useCallback(
    (index: number, mode: 'top' | 'nearest') => {
      const element = scroller.current;
      if (!element) return;
      const top = index * rowHeight;
      if (mode === 'top') element.scrollTop = top;
      else if (top < element.scrollTop) element.scrollTop = top;
      else if (top + rowHeight > element.scrollTop + element.clientHeight) element.scrollTop = top + rowHeight - element.clientHeight;
      measure();
    },
    [rowHeight, measure],
  );
  return {
    scroller,
    start,
    end: Math.max(start, end),
    before: start * rowHeight,
    after: Math.max(0, count - end) * rowHeight,
    scrollToRow,
  };
}
