import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { lockDataDir } from '../dataDirLock';
import { pageTextOf, toRow, type EventDocument } from './eventDocument';
import type { EventStore, ListEventsOptions, NewThreadEvent, StoredThreadEvent } from '../eventStore';
import type { FsyncMode } from '../fsyncMode';
import type { ListsJson } from '../pageJson';
import { createGroupCommit, type Committing } from './segments/groupCommit';
import { Journal } from './segments/journal';
import { mapWithLimit } from './segments/mapWithLimit';
import { migrateLegacyEvents, type MigrationReport } from './segments/migrateLegacyEvents';
import { createOpenSegments } from './segments/openSegments';
import { toSegmentDocument } from './segments/segmentDocument';
import { replayJournals, type ReplayReport } from './segments/replayJournals';
import { readSegmentIndex, writeSegmentIndex, type SegmentHead } from './segments/segmentIndex';
import { EVENTS_DIR_NAME, segmentId, threadFileOf } from './segments/segmentLayout';
import { syncFiles } from './segments/syncFiles';
import { ThreadSegment } from './segments/threadSegment';
import { createWriteHandles } from './segments/writeHandles';
import { storedRowOf } from '../../protocol/threadEvents';

export { LEGACY_EVENTS_FILE_NAME } from './segments/segmentLayout';

/**
 * A page of a thread that is not open, ending within this many rows of the thread's start, is read from the
 * start of its file instead of opening the thread (a first page costs its own lines, not the thread's).
 */
const FROM_START_MAX_ROWS = 300;
/** Pages up to this many rows are read by `_id` lookups; a larger window (or no limit) scans the thread. */
const PAGE_BY_ID_MAX_ROWS = 5_000;
/** nedb matches `$in` against each candidate, linear in the list, so ids go in chunks to keep a page linear. */
const ID_LOOKUP_CHUNK = 100;
/** Thread files written at once by one commit (the journal, not they, is fsynced before the ack). */
const WRITE_CONCURRENCY = 64;
/**
 * Thread files a checkpoint writes at once. Few, so the checkpoint takes its slices of libuv's 4-thread pool
 * beside the commits instead of queueing hundreds of writes ahead of the journal's fsync (at 64, a checkpoint
 * of 200 threads held acks at 5,000/s back by 50–130 ms).
 */
const CHECKPOINT_WRITE_CONCURRENCY = 2;
/** How often a changed index is saved; it is only a hint (see segmentIndex.ts), so losing the last one is cheap. */
const INDEX_SAVE_MS = 5_000;
/**
 * A checkpoint (sync the thread files written since, then drop the journal) starts this often, or once the
 * journal holds this many bytes: what a start after a power cut replays at most is bounded by them.
 */
const CHECKPOINT_MS = 1_000;
const CHECKPOINT_BYTES = 32 * 1024 * 1024;
/** Thread files kept open for appends without a journal (`off`: each commit writes them). */
const OPEN_WRITE_HANDLES = 256;
/**
 * A journal this much past its checkpoint size while the previous checkpoint still syncs makes the next
 * commit wait for that checkpoint: ingest slows to what the disk absorbs instead of the journal (and what a
 * start after a power cut replays) growing without bound.
 */
const JOURNAL_MAX_BYTES = 4 * CHECKPOINT_BYTES;

export const DEFAULT_STORE_OPEN_THREADS = 64;
export const DEFAULT_STORE_OPEN_MB = 64;

export interface NedbEventStoreOptions {
  /** Created if missing; one process at a time (see `lockDataDir`). */
  dataDir: string;
  /** When an ack means the row is on disk (default `batch`: group commit, fsynced before the ack). */
  fsync?: FsyncMode;
  /** Threads whose rows are held in memory for reads at most (least recently read are closed first). */
  openThreads?: number;
  /** MiB of thread files held in memory at most. */
  openMb?: number;
  /** Lines a migration holds before writing them out and recording its progress (default 16 MiB). */
  migrationBufferBytes?: number;
  /** How often a checkpoint starts (default 1 s); tests set it high to keep a journal on disk. */
  checkpointMs?: number;
  newId?(): string;
  now?(): Date;
  log?(message: string): void;
}

export interface NedbEventStoreStats {
  /** Threads whose rows are in memory (read recently). */
  openThreads: number;
  /** Bytes of their files. */
  openBytes: number;
  /** Threads the index or this process knows of: a head each, rows in memory only for the open ones. */
  knownThreads: number;
}

export interface NedbEventStore extends EventStore, ListsJson {
  /** Narrows the port's ObservableInput: this adapter always answers with a Promise. */
  append(events: readonly NewThreadEvent[]): Promise<StoredThreadEvent[]>;
  readonly dataDir: string;
  readonly eventsDir: string;
  /** The file that holds a thread's rows (it may not exist yet). */
  threadFilePath(threadId: string): string;
  stats(): NedbEventStoreStats;
  /** Set when this open migrated a data dir of the one-file layout. */
  readonly migration: MigrationReport | undefined;
  /** What this open found in journals left by a run that ended before its checkpoint. */
  readonly replay: ReplayReport;
}

/**
 * The embedded event store: one nedb file per thread under `<dataDir>/events`, loaded into an in-memory nedb
 * datastore only while the thread is being read, and a small index so appends continue a thread without
 * reading it. Opening reads the index, never a thread: start-up time does not grow with history.
 */
export async function openNedbEventStore(options: NedbEventStoreOptions): Promise<NedbEventStore> {
  const dataDir = path.resolve(options.dataDir);
  await fs.mkdir(dataDir, { recursive: true });
  const lock = await lockDataDir(dataDir);
  try {
    const migration = await migrateLegacyEvents(dataDir, { log: options.log, bufferBytes: options.migrationBufferBytes });
    const eventsDir = path.join(dataDir, EVENTS_DIR_NAME);
    await fs.mkdir(eventsDir, { recursive: true });
    const index = await readSegmentIndex(eventsDir);
    const segments = new Map<string, ThreadSegment>();
    const segmentOf = (threadId: string): ThreadSegment => {
      let segment = segments.get(threadId);
      if (!segment) segments.set(threadId, (segment = new ThreadSegment(threadId, threadFileOf(eventsDir, threadId))));
      return segment;
    };
    // Not the index: a thread named by a journal had writes no checkpoint synced, so only its file can tell.
    const replay = await replayJournals(eventsDir, segmentOf);
    if (replay.restoredRows > 0) options.log?.(`event store: restored ${replay.restoredRows} acked rows from the journal`);
    const fsync = options.fsync ?? 'batch';
    const journal = fsync === 'off' ? undefined : await Journal.open(eventsDir, { coalesce: fsync === 'batch' });
    return createStore({
      ...options,
      dataDir,
      eventsDir,
      index,
      segments,
      segmentOf,
      journal,
      migration,
      replay,
      release: () => lock.release(),
    });
  } catch (error) {
    await lock.release();
    throw error;
  }
}

interface StoreContext extends NedbEventStoreOptions {
  eventsDir: string;
  index: Map<string, SegmentHead>;
  segments: Map<string, ThreadSegment>;
  segmentOf(threadId: string): ThreadSegment;
  /** Absent with `fsync: off`. */
  journal: Journal | undefined;
  migration: MigrationReport | undefined;
  replay: ReplayReport;
  release(): Promise<void>;
}

function createStore(context: StoreContext): NedbEventStore {
  const { eventsDir, index, segments, segmentOf, journal } = context;
  const newId = context.newId ?? randomUUID;
  const now = context.now ?? (() => new Date());
  const fsync = context.fsync ?? 'batch';
  const checkpointMs = context.checkpointMs ?? CHECKPOINT_MS;
  const open = createOpenSegments({
    maxThreads: context.openThreads ?? DEFAULT_STORE_OPEN_THREADS,
    maxBytes: (context.openMb ?? DEFAULT_STORE_OPEN_MB) * 1024 * 1024,
  });
  const writeHandles = createWriteHandles(OPEN_WRITE_HANDLES);
  let closed = false;
  let indexChanged = false;
  let indexSaving: Promise<void> = Promise.resolve();
  /** Thread files (and folders of new ones) written since the journal file was started: a checkpoint syncs them. */
  let unsynced = new Set<string>();
  /** Threads holding appended lines in memory (the journal has them): a checkpoint writes them to their files. */
  let deferred = new Set<ThreadSegment>();
  const flushAll = async (segmentsToFlush: Iterable<ThreadSegment>) => {
    const outcomes = await mapWithLimit([...segmentsToFlush], CHECKPOINT_WRITE_CONCURRENCY, (segment) =>
      segment.exclusive(() => segment.flush()),
    );
    const failure = outcomes.find((outcome) => outcome.status === 'rejected');
    if (failure) throw failure.reason;
  };
  let checkpointing: Promise<void> | undefined;
  let lastCheckpoint = Date.now();
  /** Commits and checkpoint starts run one at a time, so a checkpoint never splits a group's journal write from its files. */
  let serial: Promise<unknown> = Promise.resolve();
  const serially = <T>(work: () => Promise<T>): Promise<T> => {
    const run = serial.then(work);
    serial = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  };

  const saveIndex = (): Promise<void> => {
    if (!indexChanged) return indexSaving;
    indexChanged = false;
    const snapshot = new Map(index);
    indexSaving = indexSaving
      .then(() => writeSegmentIndex(eventsDir, snapshot))
      .catch((error: unknown) => {
        indexChanged = true;
        context.log?.(`event store: the index was not saved (${(error as Error).message}); it is rebuilt from the files as needed`);
      });
    return indexSaving;
  };
  const indexTimer = setInterval(() => void saveIndex(), INDEX_SAVE_MS);
  indexTimer.unref();

  /**
   * Seals the journal file and, beside the next commits, writes the lines threads hold in memory to their
   * files, syncs the files written while the journal was current, then deletes it. Runs between commits (`serially`). A failed checkpoint leaves its journal on disk: the
   * next open replays it, which is harmless.
   */
  const beginCheckpoint = async (): Promise<void> => {
    if (!journal || checkpointing) return;
    const sealed = await journal.seal();
    lastCheckpoint = Date.now();
    if (!sealed) return;
    const paths = [...unsynced];
    unsynced = new Set();
    const toFlush = deferred;
    deferred = new Set();
    checkpointing = (async () => {
      await flushAll(toFlush);
      await syncFiles(paths, eventsDir);
      await fs.rm(sealed, { force: true });
    })()
      .catch((error: unknown) =>
        context.log?.(`event store: checkpoint failed (${(error as Error).message}); its journal is replayed at the next start`),
      )
      .finally(() => (checkpointing = undefined));
  };
  const checkpointDue = () =>
    journal !== undefined && journal.bytes > 0 && (journal.bytes >= CHECKPOINT_BYTES || Date.now() - lastCheckpoint >= checkpointMs);
  const checkpointTimer = setInterval(
    () => {
      if (checkpointDue()) void serially(beginCheckpoint);
    },
    Math.min(checkpointMs, CHECKPOINT_MS),
  );
  checkpointTimer.unref();

  /**
   * Stores one thread's share of a commit after its head: with a journal in memory until the next checkpoint
   * writes its file (the journal, fsynced before the ack, holds the rows meanwhile), without one in its file;
   * and in its datastore if the thread is open. Returns the rows and their lines for the journal.
   */
  const appendToThread = (
    segment: ThreadSegment,
    events: readonly NewThreadEvent[],
    createdAt: string,
  ): Promise<{ rows: StoredThreadEvent[]; lines: string }> =>
    segment.exclusive(async () => {
      try {
        let seq = (await segment.ensureHead(index.get(segment.threadId))).lastSeq;
        const rows = events.map((event) => storedRowOf(event, newId(), ++seq, createdAt));
        const documents = rows.map(toSegmentDocument);
        // Memory first: nedb's unique `_id` refuses a seq the thread already has before the file sees it.
        await segment.datastore?.insert(documents);
        const lines = documents.map((document) => `${JSON.stringify(document)}\n`).join('');
        const created = await segment.write(lines, seq, { defer: journal !== undefined });
        if (!journal) writeHandles.wrote(segment); // written now, and likely again soon: keep it open
        if (journal) {
          deferred.add(segment);
          unsynced.add(segment.filePath);
          if (created) unsynced.add(path.dirname(segment.filePath)).add(eventsDir);
        }
        index.set(segment.threadId, { ...segment.head! });
        indexChanged = true;
        return { rows, lines };
      } catch (error) {
        // Without a journal the lines of this failed commit are the only ones waiting: drop them, and let the
        // file's tail tell the head again. With one, waiting lines are acked rows the head already counts.
        if (!journal) segment.discardPending();
        if (!segment.hasPending) segment.head = undefined;
        if (segment.datastore) open.close(segment);
        throw error;
      }
    });

  const commitGroup = async (group: ReadonlyArray<readonly NewThreadEvent[]>): Promise<Committing<StoredThreadEvent[]>> => {
    if (journal && checkpointing && journal.bytes >= JOURNAL_MAX_BYTES) await checkpointing;
    if (checkpointDue()) await beginCheckpoint();
    const createdAt = now().toISOString();
    const byThread = new Map<string, NewThreadEvent[]>();
    for (const events of group)
      for (const event of events) byThread.get(event.threadId)?.push(event) ?? byThread.set(event.threadId, [event]);
    const threadIds = [...byThread.keys()];
    const outcomes = await mapWithLimit(threadIds, WRITE_CONCURRENCY, (threadId) =>
      appendToThread(segmentOf(threadId), byThread.get(threadId)!, createdAt),
    );
    const stored = new Map<string, StoredThreadEvent[]>();
    const failed = new Map<string, Error>();
    const journalLines: string[] = [];
    outcomes.forEach((outcome, i) => {
      if (outcome.status === 'fulfilled') {
        stored.set(threadIds[i]!, outcome.value.rows);
        journalLines.push(outcome.value.lines);
      } else failed.set(threadIds[i]!, outcome.reason instanceof Error ? outcome.reason : new Error(String(outcome.reason)));
    });
    // One fsync for the whole group (and the groups prepared while the one before was being synced), however
    // many threads it wrote: the ack means "on disk". Journal appends complete in the order they are called.
    const journaled = journal && journalLines.length > 0 ? journal.append(journalLines.join('')) : Promise.resolve();
    const outcome = journaled.then(() => {
      for (const [threadId, rows] of stored) segmentOf(threadId).ackedSeq = rows[rows.length - 1]!.seq;
      // Hand each append its own rows back in its own order: a thread's rows were numbered in submission order.
      const taken = new Map<string, number>();
      return group.map((events) => {
        const failure = events.map((event) => failed.get(event.threadId)).find((error) => error !== undefined);
        const rows = events.map((event) => {
          const at = taken.get(event.threadId) ?? 0;
          taken.set(event.threadId, at + 1);
          return stored.get(event.threadId)?.[at];
        });
        return failure ?? (rows as StoredThreadEvent[]);
      });
    });
    return { outcome };
  };
  const commits = createGroupCommit<readonly NewThreadEvent[], StoredThreadEvent[]>(fsync, (group) => serially(() => commitGroup(group)));

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

  /** The stored documents of a page, in seq order; `list` and `listJson` make rows or text of them. */
  const documentsOf = async (threadId: string, { afterSeq = 0, limit }: ListEventsOptions = {}): Promise<EventDocument[]> => {
    const segment = segmentOf(threadId);
    if (!segment.datastore && limit !== undefined && afterSeq + limit <= FROM_START_MAX_ROWS) {
      const page = await segment.exclusive(async () => {
        if (segment.datastore) return undefined;
        await segment.ensureHead(index.get(threadId));
        if (segment.ackedSeq <= afterSeq) return [];
        return segment.readFromStart(afterSeq, Math.min(afterSeq + limit, segment.ackedSeq));
      });
      if (page) return page;
    }
    const datastore = await openThread(segment);
    if (!datastore) return [];
    // Rows past the last acked seq are written but their fsync is still running: not readable yet.
    const acked = segment.ackedSeq;
    if (acked <= afterSeq) return [];
    const scan = async () => {
      const query = datastore.find<EventDocument>({ seq: { $gt: afterSeq, $lte: acked } }).sort({ seq: 1 });
      return limit === undefined ? query : query.limit(limit);
    };
    if (limit === undefined || limit > PAGE_BY_ID_MAX_ROWS) return scan();
    const ids = Array.from({ length: Math.min(limit, acked - afterSeq) }, (_, i) => segmentId(afterSeq + 1 + i));
    const chunks: Array<Promise<EventDocument[]>> = [];
    for (let start = 0; start < ids.length; start += ID_LOOKUP_CHUNK) {
      chunks.push(datastore.find<EventDocument>({ _id: { $in: ids.slice(start, start + ID_LOOKUP_CHUNK) } }).exec());
    }
    const page = (await Promise.all(chunks)).flat().sort((a, b) => a.seq - b.seq);
    // Seqs have no gaps, so a short page is the thread's end, unless rows lie beyond the window (a gap: a
    // damaged line skipped on load); the scan returns those.
    if (page.length < ids.length && acked > afterSeq + ids.length) return scan();
    return page;
  };

  return {
    dataDir: context.dataDir,
    eventsDir,
    migration: context.migration,
    replay: context.replay,
    threadFilePath: (threadId) => threadFileOf(eventsDir, threadId),
    stats: () => ({ openThreads: open.size, openBytes: open.bytes(), knownThreads: new Set([...index.keys(), ...segments.keys()]).size }),
    append(events) {
      if (closed) return Promise.reject(new Error('The event store is closed'));
      if (events.length === 0) return Promise.resolve([]);
      return commits.submit(events);
    },
    async list(threadId: string, options?: ListEventsOptions) {
      return (await documentsOf(threadId, options)).map(toRow);
    },
    async listJson(threadId: string, options?: ListEventsOptions) {
      const documents = await documentsOf(threadId, options);
      return { json: pageTextOf(documents), rows: documents.length };
    },
    async lastSeq(threadId: string) {
      await commits.settled();
      const segment = segmentOf(threadId);
      return segment.exclusive(async () => (await segment.ensureHead(index.get(threadId))).lastSeq);
    },
    async close() {
      if (closed) return;
      closed = true;
      await commits.settled();
      clearInterval(indexTimer);
      clearInterval(checkpointTimer);
      await writeHandles.closeAll();
      await checkpointing; // one still syncing would make the last one skip its turn
      await serially(beginCheckpoint);
      await checkpointing;
      await flushAll(deferred).catch(() => undefined); // a failed checkpoint's lines: its journal stays for the next start
      await saveIndex();
      await journal?.close();
      await context.release();
    },
  };
}
