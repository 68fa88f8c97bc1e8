import type { ListEventsOptions } from '../eventStore';
import type { EventDocument } from './eventDocument';
import type { SegmentHead } from './segments/segmentIndex';
import type { ThreadSegment } from './segments/threadSegment';

export interface ReadPageDeps {
  index: ReadonlyMap<string, SegmentHead>;
  segmentOf(threadId: string): ThreadSegment;
}

/**
 * The stored documents of a page, in seq order (`list` and `listJson` make rows or text of them), read from
 * the thread's file from a line mark just before the page, whatever its size: the store holds no thread in
 * memory, so what a read costs is its page (issue 31). A read with no limit reads to the thread's end. Only
 * acked rows are read.
 */
export function createReadPage({ index, segmentOf }: ReadPageDeps) {
  return (threadId: string, { afterSeq = 0, limit }: ListEventsOptions = {}): Promise<EventDocument[]> => {
    const segment = segmentOf(threadId);
    return segment.exclusive(async () => {
      await segment.ensureHead(index.get(threadId));
      // Rows past the last acked seq are written but their fsync is still running: not readable yet.
      const acked = segment.ackedSeq;
      if (acked <= afterSeq) return [];
      return segment.readRange(afterSeq, limit === undefined ? acked : Math.min(afterSeq + limit, acked), acked);
    });
  };
}
