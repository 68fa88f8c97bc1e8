import { Problem } from '../http/problem';

/** Which page a reader asks for: forwards after a cursor (the default), backwards before one, or the last rows. */
export interface PageRequest {
  afterSeq?: number;
  beforeSeq?: number;
  tail?: boolean;
  limit: number;
}

/** The same page as a forward read: rows with `seq > afterSeq`, at most `limit` of them. */
export interface ForwardWindow {
  afterSeq: number;
  limit: number;
}

/**
 * Turns a backward or tail request into the forward read the store answers. Seqs are 1, 2, 3… with no gap
 * (spec), so the `limit` rows before seq N are exactly those after `N - 1 - limit`: no store needs to read
 * backwards, and a page is as cheap from the end as from the start.
 */
export function forwardWindowOf(request: PageRequest, lastSeq: () => Promise<number>): Promise<ForwardWindow> | ForwardWindow {
  const { afterSeq, beforeSeq, tail, limit } = request;
  const cursors = [afterSeq !== undefined, beforeSeq !== undefined, tail === true].filter(Boolean).length;
  if (cursors > 1)
    throw new Problem(400, 'conflicting_cursors', 'give one of afterSeq (forwards), beforeSeq (backwards) or tail=true (the last rows)');
  if (beforeSeq === undefined && !tail) return { afterSeq: afterSeq ?? 0, limit };
  // A cursor past the end (a thread read before rows were lost to a delete, or a made-up one) reads the last rows.
  return lastSeq().then((last) => before(Math.min(beforeSeq ?? Infinity, last + 1), limit));
}

const before = (beforeSeq: number, limit: number): ForwardWindow => {
  const first = Math.max(1, beforeSeq - limit);
  // Nothing before seq 1: an empty page (a forward read of zero rows is not allowed, so one past the end).
  return beforeSeq <= 1 ? { afterSeq: 0, limit: 0 } : { afterSeq: first - 1, limit: beforeSeq - first };
};
