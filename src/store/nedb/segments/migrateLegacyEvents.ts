import { createReadStream, promises as fs } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { EventDocument } from '../eventDocument';
import { mapWithLimit } from './mapWithLimit';
import { writeSegmentIndex, type SegmentHead } from './segmentIndex';
import { EVENTS_DIR_NAME, LEGACY_EVENTS_FILE_NAME, MIGRATING_DIR_NAME, segmentId, threadFileOf } from './segmentLayout';
import { fsyncPath } from '../../fsyncPath';
import { documentsIn, parseDocument } from './threadSegment';

/** Lines held before they are appended to their threads' files: bounds memory whatever the old file's size. */
const BUFFER_BYTES = 16 * 1024 * 1024;
const FILE_CONCURRENCY = 32;
/** Written into the staging folder after each flush: where a killed migration resumes. */
const PROGRESS_FILE_NAME = 'progress.json';

export interface MigrationReport {
  rows: number;
  threads: number;
  /** Lines of the old file that were not rows (nedb's index lines) or could not be read (damaged, torn). */
  skippedLines: number;
  /** Where this run picked up a migration an earlier run was killed in (0: from the start). */
  resumedAtByte: number;
}

interface ThreadProgress {
  lastSeq: number;
  /** False once a seq arrived out of order (nedb rewrites its file in `_id` text order: 1, 10, 100, 2…). */
  ordered: boolean;
  /** Bytes of its staging file as of the last progress record. */
  bytes: number;
}

/** The staging folder's state after a flush: every line before `offset` is in the thread files, up to their `bytes`. */
interface MigrationProgress {
  legacySize: number;
  offset: number;
  rows: number;
  skippedLines: number;
  threads: Record<string, ThreadProgress>;
}

/**
 * Moves a data dir of the one-file layout (`thread-events.db`) to one file per thread, streamed line by line.
 * Everything is written under `events.migrating/`, fsynced, and only then renamed to `events/` in one step; the
 * old file is removed after that. A kill at any moment leaves either the old file untouched and a staging
 * folder with a progress record (the next start resumes from the record's offset, cutting the thread files
 * back to it) or a complete `events/` (the next start only removes the old file). Returns undefined when
 * there was nothing to migrate.
 */
export async function migrateLegacyEvents(
  dataDir: string,
  { log, bufferBytes = BUFFER_BYTES }: { log?: (message: string) => void; bufferBytes?: number } = {},
): Promise<MigrationReport | undefined> {
  const eventsDir = path.join(dataDir, EVENTS_DIR_NAME);
  const stagingDir = path.join(dataDir, MIGRATING_DIR_NAME);
  const legacyFile = await legacyFileIn(dataDir);
  if (await exists(eventsDir)) {
    if (legacyFile) await removeLegacy(dataDir);
    return undefined;
  }
  if (!legacyFile) return undefined;

  const legacySize = (await fs.stat(legacyFile)).size;
  const resumed = await resumableProgress(stagingDir, legacySize);
  log?.(
    `event store: ${resumed ? `resuming the migration of ${legacyFile} at byte ${resumed.offset}` : `migrating ${legacyFile}`} to one file per thread in ${eventsDir}`,
  );
  if (!resumed) {
    await fs.rm(stagingDir, { recursive: true, force: true });
    await fs.mkdir(stagingDir);
  }
  const progress = new Map<string, ThreadProgress>(Object.entries(resumed?.threads ?? {}));
  const report: MigrationReport = {
    rows: resumed?.rows ?? 0,
    threads: 0,
    skippedLines: resumed?.skippedLines ?? 0,
    resumedAtByte: resumed?.offset ?? 0,
  };
  let offset = resumed?.offset ?? 0;
  let buffered = new Map<string, string[]>();
  let bufferedBytes = 0;
  const flush = async () => {
    const pending = buffered;
    buffered = new Map();
    bufferedBytes = 0;
    const outcomes = await mapWithLimit([...pending], FILE_CONCURRENCY, async ([threadId, lines]) => {
      const file = threadFileOf(stagingDir, threadId);
      await fs.mkdir(path.dirname(file), { recursive: true });
      const text = Buffer.from(lines.join(''));
      await fs.appendFile(file, text);
      progress.get(threadId)!.bytes += text.length;
    });
    const failure = outcomes.find((outcome) => outcome.status === 'rejected');
    if (failure) throw failure.reason;
    const record: MigrationProgress = {
      legacySize,
      offset,
      rows: report.rows,
      skippedLines: report.skippedLines,
      threads: Object.fromEntries(progress),
    };
    await fs.writeFile(path.join(stagingDir, `${PROGRESS_FILE_NAME}.tmp`), JSON.stringify(record));
    await fs.rename(path.join(stagingDir, `${PROGRESS_FILE_NAME}.tmp`), path.join(stagingDir, PROGRESS_FILE_NAME));
  };

  const lines = createInterface({ input: createReadStream(legacyFile, { encoding: 'utf8', start: offset }), crlfDelay: Infinity });
  for await (const line of lines) {
    offset += Buffer.byteLength(line) + 1; // nedb ends every line with `\n`
    const document = parseDocument(line);
    if (!document) {
      report.skippedLines++;
      continue;
    }
    const { threadId, seq } = document;
    const known = progress.get(threadId);
    if (!known) progress.set(threadId, { lastSeq: seq, ordered: true, bytes: 0 });
    else {
      if (seq <= known.lastSeq) known.ordered = false;
      known.lastSeq = Math.max(known.lastSeq, seq);
    }
    const text = `${JSON.stringify({ ...document, _id: segmentId(seq) })}\n`;
    buffered.get(threadId)?.push(text) ?? buffered.set(threadId, [text]);
    bufferedBytes += text.length;
    report.rows++;
    if (bufferedBytes >= bufferBytes) await flush();
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
  await fs.rm(path.join(stagingDir, PROGRESS_FILE_NAME), { force: true });
  await writeSegmentIndex(stagingDir, heads);
  for (const shard of await fs.readdir(stagingDir)) await fsyncPath(path.join(stagingDir, shard)).catch(() => undefined);
  await fsyncPath(stagingDir);
  await fs.rename(stagingDir, eventsDir);
  await fsyncPath(dataDir);
  await removeLegacy(dataDir);
  report.threads = progress.size;
  log?.(`event store: migrated ${report.rows} rows of ${report.threads} threads (${report.skippedLines} lines skipped)`);
  return report;
}

/**
 * The progress of a migration that was cut off, with its staging files cut back to what the progress record
 * says (lines written after it are written again) and files it does not know removed. Undefined (start over)
 * when there is no record, the old file changed since, or a staging file is shorter than recorded.
 */
async function resumableProgress(stagingDir: string, legacySize: number): Promise<MigrationProgress | undefined> {
  let progress: MigrationProgress;
  try {
    progress = JSON.parse(await fs.readFile(path.join(stagingDir, PROGRESS_FILE_NAME), 'utf8')) as MigrationProgress;
  } catch {
    return undefined;
  }
  if (progress.legacySize !== legacySize) return undefined;
  const known = new Map(Object.entries(progress.threads).map(([threadId, thread]) => [threadFileOf(stagingDir, threadId), thread.bytes]));
  let found = 0;
  for (const shard of await fs.readdir(stagingDir, { withFileTypes: true })) {
    if (!shard.isDirectory()) continue;
    for (const name of await fs.readdir(path.join(stagingDir, shard.name))) {
      const file = path.join(stagingDir, shard.name, name);
      const bytes = known.get(file);
      if (bytes === undefined) await fs.rm(file, { force: true });
      else if ((await fs.stat(file)).size < bytes) return undefined;
      else {
        await fs.truncate(file, bytes);
        found++;
      }
    }
  }
  return found === known.size ? progress : undefined;
}

/** One thread's file sorted by seq, a seq seen twice kept once (the later line, as nedb reads it). */
async function rewriteInSeqOrder(file: string): Promise<void> {
  const bySeq = new Map<number, EventDocument>();
  for await (const document of documentsIn(file)) bySeq.set(document.seq, document);
  const text = [...bySeq.values()]
    .sort((a, b) => a.seq - b.seq)
    .map((document) => `${JSON.stringify(document)}\n`)
    .join('');
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
