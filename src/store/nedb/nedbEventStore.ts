import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { lockDataDir } from '../dataDirLock';
import type { EventStore, ListEventsOptions, NewThreadEvent, StoredThreadEvent } from '../eventStore';
import type { FsyncMode } from '../fsyncMode';
import type { ListsJson } from '../pageJson';
import { createAppendToThread } from './appendToThread';
import { startCheckpointer } from './checkpointer';
import { createCommitGroup } from './commitGroup';
import { createDeleteThread } from './deleteThread';
import { pageTextOf, rowTextsOf, toRow } from './eventDocument';
import { startIndexSaver } from './indexSaver';
import { createReadPage } from './readPage';
import { createGroupCommit } from './segments/groupCommit';
import { Journal } from './segments/journal';
import { migrateLegacyEvents, type MigrationReport } from './segments/migrateLegacyEvents';
import { replayJournals, type ReplayReport } from './segments/replayJournals';
import { readSegmentIndex, type SegmentHead } from './segments/segmentIndex';
import { EVENTS_DIR_NAME, threadFileOf } from './segments/segmentLayout';
import { ThreadSegment } from './segments/threadSegment';
import { createWriteHandles } from './segments/writeHandles';
import { createSerially } from './serially';

export { LEGACY_EVENTS_FILE_NAME } from './segments/segmentLayout';

/** Thread files kept open for appends without a journal (`off`: each commit writes them). */
const OPEN_WRITE_HANDLES = 256;

export interface NedbEventStoreOptions {
  /** Created if missing; one process at a time (see `lockDataDir`). */
  dataDir: string;
  /** When an ack means the row is on disk (default `batch`: group commit, fsynced before the ack). */
  fsync?: FsyncMode;
  /** Lines a migration holds before writing them out and recording its progress (default 16 MiB). */
  migrationBufferBytes?: number;
  /** How often a checkpoint starts (default 1 s); tests set it high to keep a journal on disk. */
  checkpointMs?: number;
  newId?(): string;
  now?(): Date;
  log?(message: string): void;
}

export interface NedbEventStoreStats {
  /** Threads the index or this process knows of: a head each, never their rows. */
  knownThreads: number;
  /** Line marks learnt by reads over all threads (two numbers each): what reading costs in memory between reads. */
  lineMarks: number;
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
 * The embedded event store: one nedb-format file per thread under `<dataDir>/events`, read a page at a time
 * from line marks (never loaded whole), and a small index so appends continue a thread without reading it.
 * Opening reads the index, never a thread: start-up time does not grow with history, nor memory with reads.
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

/**
 * Assembles the store from its parts (commits, checkpoints, the index saver, page reads) and closes them in
 * the order that loses nothing: the last commits, then the last checkpoint, then the index, then the journal.
 */
function createStore(context: StoreContext): NedbEventStore {
  const { eventsDir, index, segments, segmentOf, journal, log } = context;
  const writeHandles = createWriteHandles(OPEN_WRITE_HANDLES);
  const serially = createSerially();
  const indexSaver = startIndexSaver(eventsDir, index, log);
  const checkpointer = journal && startCheckpointer({ journal, eventsDir, serially, checkpointMs: context.checkpointMs, log });
  const appendToThread = createAppendToThread({
    index,
    indexSaver,
    checkpointer,
    writeHandles,
    newId: context.newId ?? randomUUID,
  });
  const commitGroup = createCommitGroup({ journal, checkpointer, appendToThread, segmentOf, now: context.now ?? (() => new Date()) });
  const commits = createGroupCommit<readonly NewThreadEvent[], StoredThreadEvent[]>(context.fsync ?? 'batch', (group) =>
    serially(() => commitGroup(group)),
  );
  const readPage = createReadPage({ index, segmentOf });
  const deleteThread = createDeleteThread({
    fsync: context.fsync ?? 'batch',
    segments,
    segmentOf,
    indexSaver,
    checkpointer,
    writeHandles,
    serially,
    settled: () => commits.settled(),
  });
  let closed = false;

  return {
    dataDir: context.dataDir,
    eventsDir,
    migration: context.migration,
    replay: context.replay,
    threadFilePath: (threadId) => threadFileOf(eventsDir, threadId),
    stats: () => ({
      knownThreads: new Set([...index.keys(), ...segments.keys()]).size,
      lineMarks: [...segments.values()].reduce((sum, segment) => sum + segment.lines.marks, 0),
    }),
    append(events) {
      if (closed) return Promise.reject(new Error('The event store is closed'));
      if (events.length === 0) return Promise.resolve([]);
      return commits.submit(events);
    },
    async list(threadId: string, options?: ListEventsOptions) {
      return (await readPage(threadId, options)).map(toRow);
    },
    async listJson(threadId: string, options?: ListEventsOptions) {
      const documents = await readPage(threadId, options);
      return { json: pageTextOf(documents), rows: documents.length };
    },
    async listRowJson(threadId: string, options?: ListEventsOptions) {
      const documents = await readPage(threadId, options);
      const texts = rowTextsOf(documents);
      return documents.map((document, i) => ({ seq: document.seq, json: texts[i]! }));
    },
    async lastSeq(threadId: string) {
      await commits.settled();
      const segment = segmentOf(threadId);
      return segment.exclusive(async () => (await segment.ensureHead(index.get(threadId))).lastSeq);
    },
    deleteThread(threadId: string) {
      if (closed) return Promise.reject(new Error('The event store is closed'));
      return deleteThread(threadId);
    },
    async close() {
      if (closed) return;
      closed = true;
      await commits.settled();
      indexSaver.stop();
      checkpointer?.stop();
      await writeHandles.closeAll();
      await checkpointer?.finish();
      await indexSaver.save();
      await journal?.close();
      await context.release();
    },
  };
}
