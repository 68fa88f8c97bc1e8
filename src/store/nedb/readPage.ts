import type Datastore from 'nedb-promises';
import type { ListEventsOptions } from '../eventStore';
import type { EventDocument } from './eventDocument';
import type { OpenSegments } from './segments/openSegments';
import type { SegmentHead } from './segments/segmentIndex';
import { segmentId } from './segments/segmentLayout';
import type { ThreadSegment } from './segments/threadSegment';

/**
 * Pages up to this many rows of a thread not in memory are read from its file. A larger page opens the thread:
 * re-reading and parsing hundreds of rows from disk for each page costs more than holding them (an SSE reader
 * reset again and again while it catches up reads the same long page each time).
 */
const FROM_FILE_MAX_ROWS = 200;
/** Pages up to this many rows are read by `_id` lookups; a larger window (or no limit) scans the thread. */
const PAGE_BY_ID_MAX_ROWS = 5_000;
/** nedb matches `$in` against each candidate, linear in the list, so ids go in chunks to keep a page linear. */
const ID_LOOKUP_CHUNK = 100;

export interface ReadPageDeps {
  index: ReadonlyMap<string, SegmentHead>;
  segmentOf(threadId: string): ThreadSegment;
  open: OpenSegments;
}

/**
 * The stored documents of a page, in seq order (`list` and `listJson` make rows or text of them), read the
 * cheapest of three ways: a page of a closed thread from its file (from a line mark just before it); a page of an open
 * (or opened) thread by `_id` lookups, so it costs its own rows and not the thread's; a wide or open-ended
 * page by a scan of the thread's datastore. Only acked rows are read.
 */
export function createReadPage({ index, segmentOf, open }: ReadPageDeps) {
  /** The thread's rows in memory, loading its file if needed; undefined for a thread with no rows. */
  const openThread = async (segment: ThreadSegment) => {
    const datastore =
      segment.datastore ??
      (await segment.exclusive(async () => {
        if (segment.datastore) return segment.datastore;
        const head = await segment.ensureHead(index.get(segment.threadId));
        return head.lastSeq === 0 ? undefined : segment.load();
      }));
    if (datastore) open.touch(segment);
    return datastore;
  };

  return async (threadId: string, { afterSeq = 0, limit }: ListEventsOptions = {}): Promise<EventDocument[]> => {
    const segment = segmentOf(threadId);
    if (!segment.datastore && limit !== undefined && limit <= FROM_FILE_MAX_ROWS) {
      const page = await pageFromFile(segment, index, afterSeq, limit);
      if (page) return page;
    }
    const datastore = await openThread(segment);
    if (!datastore) return [];
    // Rows past the last acked seq are written but their fsync is still running: not readable yet.
    const acked = segment.ackedSeq;
    if (acked <= afterSeq) return [];
    if (limit === undefined || limit > PAGE_BY_ID_MAX_ROWS) return pageByScan(datastore, afterSeq, acked, limit);
    const ids = Array.from({ length: Math.min(limit, acked - afterSeq) }, (_, i) => segmentId(afterSeq + 1 + i));
    const page = (await Promise.all(lookupsById(datastore, ids))).flat().sort((a, b) => a.seq - b.seq);
    // Seqs have no gaps, so a short page is the thread's end, unless rows lie beyond the window (a gap: a
    // damaged line skipped on load); the scan returns those.
    if (page.length < ids.length && acked > afterSeq + ids.length) return pageByScan(datastore, afterSeq, acked, limit);
    return page;
  };
}

/**
 * The page read from the thread's file, without holding the thread in memory: what a reader's memory costs is
 * the page, not the thread (issue 31). Undefined when the thread was opened meanwhile, or its file is damaged.
 */
function pageFromFile(
  segment: ThreadSegment,
  index: ReadonlyMap<string, SegmentHead>,
  afterSeq: number,
  limit: number,
): Promise<EventDocument[] | undefined> {
  return segment.exclusive(async () => {
    if (segment.datastore) return undefined;
    await segment.ensureHead(index.get(segment.threadId));
    if (segment.ackedSeq <= afterSeq) return [];
    return segment.readRange(afterSeq, Math.min(afterSeq + limit, segment.ackedSeq));
  });
}

/** The window by a scan of the thread in seq order: for wide or open-ended pages, and pages with a gap. */
async function pageByScan(
  datastore: Datastore<EventDocument>,
  afterSeq: number,
  acked: number,
  limit: number | undefined,
): Promise<EventDocument[]> {
  const query = datastore.find<EventDocument>({ seq: { $gt: afterSeq, $lte: acked } }).sort({ seq: 1 });
  return limit === undefined ? query : query.limit(limit);
}

/**
 * The page's rows by `_id`, a chunk of ids a lookup. Awaited in the page read itself rather than in a function
 * of its own: a page is one promise per chunk and nothing more (the hot path of an SSE client catching up).
 */
function lookupsById(datastore: Datastore<EventDocument>, ids: readonly string[]): Array<Promise<EventDocument[]>> {
  const chunks: Array<Promise<EventDocument[]>> = [];
  for (let start = 0; start < ids.length; start += ID_LOOKUP_CHUNK) {
    chunks.push(datastore.find<EventDocument>({ _id: { $in: ids.slice(start, start + ID_LOOKUP_CHUNK) } }).exec());
  }
  return chunks;
}
