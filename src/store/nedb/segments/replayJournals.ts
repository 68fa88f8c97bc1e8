import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { EventDocument } from '../eventDocument';
import { journalFilesIn } from './journal';
import { mapWithLimit } from './mapWithLimit';
import { fsyncPath } from '../../fsyncPath';
import { documentsIn, type ThreadSegment } from './threadSegment';

export interface ReplayReport {
  /** Journal files that held rows (an empty one, created ahead of need, is only removed). */
  journals: number;
  /** Rows the journals held that their thread files had lost (a power cut before a checkpoint). */
  restoredRows: number;
}

/**
 * At open: every row of a journal file left by a run that did not reach its checkpoint is put back into its
 * thread's file if that file lacks it (rows past the file's last seq), then the files are synced and the
 * journals deleted. After a process kill the thread files already hold every row (the OS had them), so this
 * costs a tail read per thread the journal names; a journal is at most a checkpoint's worth of rows.
 */
export async function replayJournals(eventsDir: string, segmentOf: (threadId: string) => ThreadSegment): Promise<ReplayReport> {
  const journals = await journalFilesIn(eventsDir);
  let restoredRows = 0;
  let withRows = 0;
  for (const journal of journals) {
    const byThread = new Map<string, EventDocument[]>();
    for await (const document of documentsIn(journal))
      byThread.get(document.threadId)?.push(document) ?? byThread.set(document.threadId, [document]);
    if (byThread.size > 0) withRows++;
    const outcomes = await mapWithLimit([...byThread], 16, ([threadId, documents]) => {
      const segment = segmentOf(threadId);
      return segment.exclusive(async () => {
        const head = await segment.ensureHead(undefined);
        const missing = documents.filter((document) => document.seq > head.lastSeq).sort((a, b) => a.seq - b.seq);
        if (missing.length === 0) return;
        const created = await segment.write(
          missing.map((document) => `${JSON.stringify(document)}\n`).join(''),
          missing[missing.length - 1]!.seq,
        );
        segment.ackedSeq = missing[missing.length - 1]!.seq; // a journal holds only acked rows
        await segment.closeHandle();
        await fsyncPath(segment.filePath);
        if (created) {
          await fsyncPath(path.dirname(segment.filePath));
          await fsyncPath(eventsDir);
        }
        restoredRows += missing.length;
      });
    });
    const failure = outcomes.find((outcome) => outcome.status === 'rejected');
    if (failure) throw failure.reason;
    await fs.rm(journal, { force: true });
  }
  return { journals: withRows, restoredRows };
}
