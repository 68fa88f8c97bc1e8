import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fsyncPath } from '../fsyncPath';
import type { FsyncMode } from '../fsyncMode';
import type { Checkpointer } from './checkpointer';
import type { IndexSaver } from './indexSaver';
import type { ThreadSegment } from './segments/threadSegment';
import type { WriteHandles } from './segments/writeHandles';
import type { Serially } from './serially';

export interface DeleteThreadDeps {
  fsync: FsyncMode;
  segments: Map<string, ThreadSegment>;
  segmentOf(threadId: string): ThreadSegment;
  indexSaver: IndexSaver;
  /** Absent with `fsync: off`. */
  checkpointer: Checkpointer | undefined;
  writeHandles: WriteHandles;
  serially: Serially;
  /** Settles once every append submitted so far is committed. */
  settled(): Promise<void>;
}

/**
 * Deletes a thread's rows by removing its file: the space is free at once and the cost does not grow with the
 * rows (a 100k-row thread is one unlink, `npm run bench:delete-thread`). Between two commits, after a
 * checkpoint: a journal still holding the thread's rows would put them back into a new file at the next start
 * (replayJournals), so none may be left when the file goes. The unlink is made durable by its folder's fsync.
 */
export function createDeleteThread(deps: DeleteThreadDeps): (threadId: string) => Promise<void> {
  return async (threadId) => {
    await deps.settled();
    await deps.serially(async () => {
      await deps.checkpointer?.drain();
      const segment = deps.segmentOf(threadId);
      await segment.exclusive(async () => {
        segment.discardPending();
        await segment.closeHandle();
        deps.writeHandles.forget(threadId);
        await fs.rm(segment.filePath, { force: true });
        if (deps.fsync !== 'off') await fsyncPath(path.dirname(segment.filePath)).catch(ignoreMissingFolder);
        // A reader queued behind this sees an empty thread; the next one gets a fresh segment.
        segment.head = { lastSeq: 0, bytes: 0 };
        segment.ackedSeq = 0;
        segment.lines.reset();
        segment.irregular = false;
      });
      deps.indexSaver.forget(threadId);
      deps.segments.delete(threadId);
    });
  };
}

function ignoreMissingFolder(error: unknown): void {
  if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
}
