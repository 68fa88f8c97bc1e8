import type { NewThreadEvent, StoredThreadEvent } from '../eventStore';
import type { Checkpointer } from './checkpointer';
import type { IndexSaver } from './indexSaver';
import { toSegmentDocument } from './segments/segmentDocument';
import type { SegmentHead } from './segments/segmentIndex';
import type { ThreadSegment } from './segments/threadSegment';
import type { WriteHandles } from './segments/writeHandles';
import { storedRowOf } from '../../protocol/threadEvents';

export interface AppendToThreadDeps {
  index: ReadonlyMap<string, SegmentHead>;
  indexSaver: IndexSaver;
  /** Absent with `fsync: off`: no journal, so each commit writes its thread files itself. */
  checkpointer: Checkpointer | undefined;
  writeHandles: WriteHandles;
  newId(): string;
}

/** One thread's share of a commit: its rows, and their document lines for the journal. */
export interface ThreadShare {
  rows: StoredThreadEvent[];
  lines: string;
}

/**
 * Stores one thread's share of a commit after its head: with a journal in memory until the next checkpoint
 * writes its file (the journal, fsynced before the ack, holds the rows meanwhile), without one in its file.
 * Numbering and writing happen in the thread's own turn, so two
 * commits never hand out one seq; a failure leaves the thread's head to be read again from its file.
 */
export function createAppendToThread({ index, indexSaver, checkpointer, writeHandles, newId }: AppendToThreadDeps) {
  return (segment: ThreadSegment, events: readonly NewThreadEvent[], createdAt: string): Promise<ThreadShare> =>
    segment.exclusive(async () => {
      try {
        let seq = (await segment.ensureHead(index.get(segment.threadId))).lastSeq;
        const rows = events.map((event) => storedRowOf(event, newId(), ++seq, createdAt));
        const documents = rows.map(toSegmentDocument);
        const lines = documents.map((document) => `${JSON.stringify(document)}\n`).join('');
        const created = await segment.write(lines, seq, { defer: checkpointer !== undefined });
        if (checkpointer) checkpointer.wrote(segment, created);
        else writeHandles.wrote(segment); // written now, and likely again soon: keep it open
        indexSaver.record(segment.threadId, { ...segment.head! });
        return { rows, lines };
      } catch (error) {
        // Without a journal the lines of this failed commit are the only ones waiting: drop them, and let the
        // file's tail tell the head again. With one, waiting lines are acked rows the head already counts.
        if (!checkpointer) segment.discardPending();
        if (!segment.hasPending) segment.head = undefined;
        throw error;
      }
    });
}

export type AppendToThread = ReturnType<typeof createAppendToThread>;
