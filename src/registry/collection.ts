import Datastore from 'nedb-promises';
import { DEFAULT_FSYNC_MODE, type FsyncMode } from '../store/fsyncMode';
import { escapeRawLineSeparators, LINE_SAFE_NEDB_HOOKS } from '../store/lineSeparators';
import { dropTornLastLine } from '../store/tornTail';
import { durableAck } from './durableAck';

/** One nedb file of records keyed by their own `id` (stored as nedb's `_id`, so lookups use its index). */
export interface Collection<T extends { id: string }> {
  /** Resolves once the record is durable (see `FsyncMode`). */
  insert(record: T): Promise<T>;
  get(id: string): Promise<T | undefined>;
  find(query?: Partial<T>): Promise<T[]>;
  /** Inserts or replaces the whole record; resolves once it is durable. */
  put(record: T): Promise<T>;
  /** Replaces the record only if there is one (true then): a late write never brings a removed record back. */
  update(record: T): Promise<boolean>;
  /** Removes the record (nothing happens when there is none); resolves once that is durable. */
  remove(id: string): Promise<void>;
  /** Removes the record and hands it to the one caller whose remove found it: a one-time use, even when raced. */
  take(id: string): Promise<T | undefined>;
  close(): Promise<void>;
}

export interface CollectionOptions {
  fsync?: FsyncMode;
}

/**
 * Opens (or creates) the collection's file. A crash mid-append leaves a torn last line: it is cut first, in
 * place (see dropTornLastLine). nedb's load then compacts the file by writing a temporary copy, fsyncing it
 * and renaming it over the old one, so a kill at any moment of the start leaves the old file or the new one.
 * Every line is written with U+2028, U+2029 and U+0085 escaped, which nedb's reader would split on.
 */
export async function openCollection<T extends { id: string }>(filename: string, options: CollectionOptions = {}): Promise<Collection<T>> {
  await dropTornLastLine(filename);
  await escapeRawLineSeparators(filename);
  const db = Datastore.create({ filename, autoload: false, ...LINE_SAFE_NEDB_HOOKS });
  await db.load();
  const durable = durableAck(filename, options.fsync ?? DEFAULT_FSYNC_MODE);
  const pending = new Set<Promise<void>>();
  const acked = async (write: Promise<unknown>): Promise<void> => {
    await write;
    const sync = durable();
    pending.add(sync);
    try {
      await sync;
    } finally {
      pending.delete(sync);
    }
  };
  const toRecord = (doc: Record<string, unknown>): T => {
    const { _id, ...record } = doc;
    return record as T;
  };
  /**
   * Every record by id, as nedb holds it, so a lookup is a map read: nedb's findOne allocated ~6.7 kB a call
   * (cursor, executor, candidate lists, deep copy), and the intake looks a thread up for nearly every frame.
   * This process is the file's only writer (the data dir's lock), and every write passes through here.
   */
  const byId = new Map<string, T>();
  for (const doc of await db.find({})) byId.set(doc._id as string, toRecord(doc as Record<string, unknown>));
  return {
    async insert(record) {
      const stored = copyOf(record);
      await acked(db.insert({ ...record, _id: record.id }).then(() => byId.set(record.id, stored)));
      return record;
    },
    async get(id) {
      const record = byId.get(id);
      return record && copyOf(record);
    },
    async find(query = {}) {
      const docs = await db.find(query).sort({ createdAt: 1, _id: 1 });
      return docs.map((doc) => toRecord(doc as Record<string, unknown>));
    },
    async put(record) {
      const stored = copyOf(record);
      await acked(db.update({ _id: record.id }, { ...record, _id: record.id }, { upsert: true }).then(() => byId.set(record.id, stored)));
      return record;
    },
    async update(record) {
      let replaced = 0;
      const stored = copyOf(record);
      await acked(
        db.update({ _id: record.id }, { ...record, _id: record.id }, {}).then((changed) => {
          replaced = changed as unknown as number;
          if (replaced > 0) byId.set(record.id, stored);
        }),
      );
      return replaced > 0;
    },
    async remove(id) {
      await acked(db.remove({ _id: id }, {}).then(() => byId.delete(id)));
    },
    async take(id) {
      // nedb runs removes one at a time: of two takes of one id, only the first removes a document.
      const record = byId.get(id);
      let removed = 0;
      await acked(
        db.remove({ _id: id }, {}).then((count) => {
          removed = count;
          byId.delete(id);
        }),
      );
      return removed > 0 && record ? copyOf(record) : undefined;
    },
    async close() {
      // Every write is appended once its promise resolves; what remains is the fsyncs callers did not wait for.
      await Promise.allSettled(pending);
    },
  };
}

/** A deep copy of a record (plain JSON values): like nedb's own copies, what a reader changes is its own. */
function copyOf<V>(value: V): V {
  if (Array.isArray(value)) return value.map(copyOf) as V;
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) copy[key] = copyOf((value as Record<string, unknown>)[key]);
  return copy as V;
}
