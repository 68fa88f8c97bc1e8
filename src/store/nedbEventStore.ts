import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import Datastore from 'nedb-promises';
import { lockDataDir } from './dataDirLock';
import { documentId, toDocument, toRow, type EventDocument } from './eventDocument';
import type { EventStore, ListEventsOptions, NewThreadEvent, StoredThreadEvent } from './eventStore';
import { dropTornLastLine } from './tornTail';
import { storedRowOf } from '../protocol/threadEvents';

/** The file, inside the data dir, that holds every thread's events (one JSON document per line). */
export const EVENTS_FILE_NAME = 'thread-events.db';

/** Pages up to this many rows are read by `_id` lookups; a larger window (or no limit) scans the thread. */
const PAGE_BY_ID_MAX_ROWS = 5_000;
/** nedb matches `$in` against each candidate, linear in the list, so ids go in chunks to keep a page linear. */
const ID_LOOKUP_CHUNK = 100;

export interface NedbEventStoreOptions {
  /** Created if missing; one process at a time (see `lockDataDir`). */
  dataDir: string;
  newId?(): string;
  now?(): Date;
}

export interface NedbEventStore extends EventStore {
  /** Narrows the port's ObservableInput: this adapter always answers with a Promise. */
  append(events: readonly NewThreadEvent[]): Promise<StoredThreadEvent[]>;
  readonly dataDir: string;
  readonly filePath: string;
  /** True when opening dropped a torn last line left by a crash mid-append. */
  readonly repairedTornTail: boolean;
}

export async function openNedbEventStore(options: NedbEventStoreOptions): Promise<NedbEventStore> {
  const dataDir = path.resolve(options.dataDir);
  await fs.mkdir(dataDir, { recursive: true });
  const lock = await lockDataDir(dataDir);
  try {
    const filePath = path.join(dataDir, EVENTS_FILE_NAME);
    const repairedTornTail = await dropTornLastLine(filePath);
    const db = Datastore.create({ filename: filePath, autoload: false });
    await db.load();
    await db.ensureIndex({ fieldName: 'threadId' });
    return createStore(db, { ...options, dataDir, filePath, repairedTornTail, release: () => lock.release() });
  } catch (error) {
    await lock.release();
    throw error;
  }
}

interface StoreContext extends NedbEventStoreOptions {
  filePath: string;
  repairedTornTail: boolean;
  release(): Promise<void>;
}

function createStore(db: Datastore<EventDocument>, context: StoreContext): NedbEventStore {
  const newId = context.newId ?? randomUUID;
  const now = context.now ?? (() => new Date());
  /** Highest stored seq per thread this process knows of; dropped for a thread whose append failed. */
  const lastSeqs = new Map<string, number>();
  /**
   * Appends run one after another. nedb writes through a single in-process queue anyway, so serialising all
   * threads costs nothing and makes "read last seq, insert seq + 1" atomic per thread.
   */
  let writes: Promise<unknown> = Promise.resolve();
  let closed = false;

  /**
   * Also called by reads, outside the write queue: nedb runs the query and inserts in call order, and an
   * append's own cache update waits on file I/O, so a value read here can never overwrite a newer one.
   */
  const storedLastSeq = async (threadId: string): Promise<number> => {
    const cached = lastSeqs.get(threadId);
    if (cached !== undefined) return cached;
    const [last] = await db.find<EventDocument>({ threadId }).sort({ seq: -1 }).limit(1);
    const seq = last?.seq ?? 0;
    lastSeqs.set(threadId, seq);
    return seq;
  };

  /** Every row of the thread after `afterSeq`: one `threadId` index read, then a filter and sort over the thread. */
  const scanThread = (threadId: string, afterSeq: number, limit: number | undefined) => {
    const query = db.find<EventDocument>({ threadId, seq: { $gt: afterSeq } }).sort({ seq: 1 });
    return limit === undefined ? query : query.limit(limit);
  };

  /** The rows with seq in (afterSeq, afterSeq + limit], by `_id` lookups: the cost follows `limit`, not the thread. */
  const readWindow = async (threadId: string, afterSeq: number, limit: number): Promise<EventDocument[]> => {
    const ids = Array.from({ length: limit }, (_, i) => documentId(threadId, afterSeq + 1 + i));
    const chunks: Array<Promise<EventDocument[]>> = [];
    for (let start = 0; start < ids.length; start += ID_LOOKUP_CHUNK) {
      chunks.push(db.find<EventDocument>({ _id: { $in: ids.slice(start, start + ID_LOOKUP_CHUNK) } }).exec());
    }
    return (await Promise.all(chunks)).flat().sort((a, b) => a.seq - b.seq);
  };

  const appendNow = async (events: readonly NewThreadEvent[]): Promise<StoredThreadEvent[]> => {
    const next = new Map<string, number>();
    const unknown = new Set<string>();
    for (const { threadId } of events) {
      const known = lastSeqs.get(threadId);
      if (known === undefined) unknown.add(threadId);
      else next.set(threadId, known);
    }
    if (unknown.size > 0) {
      // Queued together: nedb answers them in one pass of its queue instead of one round trip per thread.
      const looked = await Promise.all([...unknown].map(async (threadId) => [threadId, await storedLastSeq(threadId)] as const));
      for (const [threadId, seq] of looked) next.set(threadId, seq);
    }
    const createdAt = now().toISOString();
    const rows = events.map((event): StoredThreadEvent => {
      const seq = next.get(event.threadId)! + 1;
      next.set(event.threadId, seq);
      return storedRowOf(event, newId(), seq, createdAt);
    });
    try {
      await db.insert(rows.map(toDocument));
    } catch (error) {
      for (const threadId of next.keys()) lastSeqs.delete(threadId);
      throw error;
    }
    for (const [threadId, seq] of next) lastSeqs.set(threadId, seq);
    return rows;
  };

  return {
    dataDir: context.dataDir,
    filePath: context.filePath,
    repairedTornTail: context.repairedTornTail,
    append(events) {
      if (closed) return Promise.reject(new Error('The event store is closed'));
      const appended = writes.then(() => appendNow(events));
      writes = appended.catch(() => undefined);
      return appended;
    },
    async list(threadId: string, { afterSeq = 0, limit }: ListEventsOptions = {}) {
      if (limit === undefined || limit > PAGE_BY_ID_MAX_ROWS) return (await scanThread(threadId, afterSeq, limit)).map(toRow);
      const page = await readWindow(threadId, afterSeq, limit);
      // Seqs have no gaps, so a short page is the thread's end, unless rows lie beyond the window (a gap:
      // lines nedb skipped as corrupt on load); the scan returns those as it always did.
      if (page.length < limit && (await storedLastSeq(threadId)) > afterSeq + limit) {
        return (await scanThread(threadId, afterSeq, limit)).map(toRow);
      }
      return page.map(toRow);
    },
    async lastSeq(threadId: string) {
      await writes;
      return storedLastSeq(threadId);
    },
    async close() {
      if (closed) return;
      closed = true;
      await writes;
      await context.release();
    },
  };
}
