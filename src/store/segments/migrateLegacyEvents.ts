import { createReadStream, promises as fs } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { EventDocument } from '../eventDocument';
import { mapWithLimit } from './mapWithLimit';
import { writeSegmentIndex, type SegmentHead } from './segmentIndex';
import { EVENTS_DIR_NAME, LEGACY_EVENTS_FILE_NAME, MIGRATING_DIR_NAME, segmentId, threadFileOf } from './segmentLayout';
import { documentsIn, parseDocument, syncPath } from './threadSegment';

/** Lines held before they are appended to their threads' files: bounds memory whatever the old file's size. */
const BUFFER_BYTES = 16 * 1024 * 1024;
const FILE_CONCURRENCY = 32;

export interface MigrationReport {
  rows: number;
  threads: number;
  /** Lines of the old file that were not rows (nedb's index lines) or could not be read (damaged, torn). */
  skippedLines: number;
}

interface ThreadProgress {
  lastSeq: number;
  /** False once a seq arrived out of order (nedb rewrites its file in `_id` text order: 1, 10, 100, 2…). */
  ordered: boolean;
}

/**
 * Moves a data dir of the one-file layout (`thread-events.db`) to one file per thread, streamed line by line.
 * Everything is written under `events.migrating/`, fsynced, and only then renamed to `events/` in one step; the
 * old file is removed after that. A kill at any moment leaves either the old file untouched (the next start
 * removes the half-built folder and migrates again from the start) or a complete `events/` (the next start
 * only removes the old file). Returns undefined when there was nothing to migrate.
 */
export async function migrateLegacyEvents(dataDir: string, log?: (message: string) => void): Promise<MigrationReport | undefined> {
  const eventsDir = path.join(dataDir, EVENTS_DIR_NAME);
  const stagingDir = path.join(dataDir, MIGRATING_DIR_NAME);
  const legacyFile = await legacyFileIn(dataDir);
  if (await exists(eventsDir)) {
    if (legacyFile) await removeLegacy(dataDir);
    return undefined;
  }
  if (!legacyFile) return undefined;

  log?.(`event store: migrating ${legacyFile} to one file per thread in ${eventsDir}`);
  await fs.rm(stagingDir, { recursive: true, force: true });
  await fs.mkdir(stagingDir);
  const progress = new Map<string, ThreadProgress>();
  const report: MigrationReport = { rows: 0, threads: 0, skippedLines: 0 };
  let buffered = new Map<string, string[]>();
  let bufferedBytes = 0;
  const flush = async () => {
    const pending = buffered;
    buffered = new Map();
    bufferedBytes = 0;
    const outcomes = await mapWithLimit([...pending], FILE_CONCURRENCY, async ([threadId, lines]) => {
      const file = threadFileOf(stagingDir, threadId);
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.appendFile(file, lines.join(''));
    });
    const failure = outcomes.find((outcome) => outcome.status === 'rejected');
    if (failure) throw failure.reason;
  };

  const lines = createInterface({ input: createReadStream(legacyFile, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const line of lines) {
    const document = parseDocument(line);
    if (!document) {
      report.skippedLines++;
      continue;
    }
    const { threadId, seq } = document;
    const known = progress.get(threadId);
    if (!known) progress.set(threadId, { lastSeq: seq, ordered: true });
    else {
      if (seq <= known.lastSeq) known.ordered = false;
      known.lastSeq = Math.max(known.lastSeq, seq);
    }
    const text = `${JSON.stringify({ ...document, _id: segmentId(seq) })}\n`;
    buffered.get(threadId)?.push(text) ?? buffered.set(threadId, [text]);
    bufferedBytes += text.length;
    report.rows++;
    if (bufferedBytes >= BUFFER_BYTES) await flush();
  }
  await flush();

  const heads = new Map<string, SegmentHead>();
  const outcomes = await mapWithLimit([...progress], FILE_CONCURRENCY, async ([threadId, { lastSeq, ordered }]) => {
    const file = threadFileOf(stagingDir, threadId);
    if (!ordered) await rewriteInSeqOrder(file);
    const handle = await fs.open(file, 'r+');
    try {
      await handle.sync();
      heads.set(threadId, { lastSeq, bytes: (await handle.stat()).size });
    } finally {
      await handle.close();
    }
  });
  const failure = outcomes.find((outcome) => outcome.status === 'rejected');
  if (failure) throw failure.reason;
  await writeSegmentIndex(stagingDir, heads);
  for (const shard of await fs.readdir(stagingDir)) await syncPath(path.join(stagingDir, shard)).catch(() => undefined);
  await syncPath(stagingDir);
  await fs.rename(stagingDir, eventsDir);
  await syncPath(dataDir);
  await removeLegacy(dataDir);
  report.threads = progress.size;
  log?.(`event store: migrated ${report.rows} rows of ${report.threads} threads (${report.skippedLines} lines skipped)`);
  return report;
}

/** One thread's file sorted by seq, a seq seen twice kept once (the later line, as nedb reads it). */
async function rewriteInSeqOrder(file: string): Promise<void> {
  const bySeq = new Map<number, EventDocument>();
  for await (const document of documentsIn(file)) bySeq.set(document.seq, document);
  const text = [...bySeq.values()].sort((a, b) => a.seq - b.seq).map((document) => `${JSON.stringify(document)}\n`).join('');
  await fs.writeFile(`${file}.sorted`, text);
  await fs.rename(`${file}.sorted`, file);
}

/** The old file, or nedb's `~` copy when a compaction of it was cut off between its two renames. */
async function legacyFileIn(dataDir: string): Promise<string | undefined> {
  const file = path.join(dataDir, LEGACY_EVENTS_FILE_NAME);
  if (await exists(file)) return file;
  if (await exists(`${file}~`)) return `${file}~`;
  return undefined;
}

async function removeLegacy(dataDir: string): Promise<void> {
  const file = path.join(dataDir, LEGACY_EVENTS_FILE_NAME);
  await fs.rm(file, { force: true });
  await fs.rm(`${file}~`, { force: true });
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}
