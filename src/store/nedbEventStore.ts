import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import Datastore from 'nedb-promises';
import { lockDataDir } from './dataDirLock';
import type { EventScope, EventStore, ListEventsOptions, NewThreadEvent, StoredThreadEvent } from './eventStore';
import { dropTornLastLine } from './tornTail';

/** The file, inside the data dir, that holds every thread's events (one JSON document per line). */
export const EVENTS_FILE_NAME = 'thread-events.db';

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

/**
 * `data` and `scope` are stored as JSON text: SDK payloads (copied into `provider/unhandled` rows) may have
 * keys nedb rejects (`$schema`, `a.b`), and nedb need not deep-copy text. `_id` is the (threadId, seq) pair,
 * so nedb's own unique `_id` index is the backstop against a duplicate seq.
 */
interface EventDocument {
  _id: string;
  id: string;
  threadId: string;
  seq: number;
  type: string;
  turnId: string | null;
  scope: string;
  data: string;
  createdAt: string;
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

  const storedLastSeq = async (threadId: string): Promise<number> => {
    const cached = lastSeqs.get(threadId);
    if (cached !== undefined) return cached;
    const [last] = await db.find<EventDocument>({ threadId }).sort({ seq: -1 }).limit(1);
    const seq = last?.seq ?? 0;
    lastSeqs.set(threadId, seq);
    return seq;
  };

  const appendNow = async (events: readonly NewThreadEvent[]): Promise<StoredThreadEvent[]> => {
    const next = new Map<string, number>();
    for (const event of events) {
      if (next.has(event.threadId)) continue;
      next.set(event.threadId, lastSeqs.get(event.threadId) ?? (await storedLastSeq(event.threadId)));
    }
    const createdAt = now().toISOString();
    const rows = events.map((event): StoredThreadEvent => {
      const seq = next.get(event.threadId)! + 1;
      next.set(event.threadId, seq);
      const { threadId, type, turnId, scope, data } = event;
      return { id: newId(), threadId, seq, type, turnId, scope, data, createdAt };
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
      const query = db.find<EventDocument>({ threadId, seq: { $gt: afterSeq } }).sort({ seq: 1 });
      const documents = await (limit === undefined ? query : query.limit(limit));
      return documents.map(toRow);
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

function toDocument(row: StoredThreadEvent): EventDocument {
  return {
    _id: JSON.stringify([row.threadId, row.seq]),
    id: row.id,
    threadId: row.threadId,
    seq: row.seq,
    type: row.type,
    turnId: row.turnId,
    scope: JSON.stringify(row.scope),
    data: JSON.stringify(row.data),
    createdAt: row.createdAt,
  };
}

function toRow(document: EventDocument): StoredThreadEvent {
  return {
    id: document.id,
    threadId: document.threadId,
    seq: document.seq,
    type: document.type,
    turnId: document.turnId,
    scope: JSON.parse(document.scope) as EventScope,
    data: JSON.parse(document.data) as StoredThreadEvent['data'],
    createdAt: document.createdAt,
  };
}
