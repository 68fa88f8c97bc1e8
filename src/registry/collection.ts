import Datastore from 'nedb-promises';

/** One nedb file of records keyed by their own `id` (stored as nedb's `_id`, so lookups use its index). */
export interface Collection<T extends { id: string }> {
  insert(record: T): Promise<T>;
  get(id: string): Promise<T | undefined>;
  find(query?: Partial<T>): Promise<T[]>;
  /** Inserts or replaces the whole record. */
  put(record: T): Promise<T>;
  close(): Promise<void>;
}

export function openCollection<T extends { id: string }>(filename: string): Collection<T> {
  const db = Datastore.create({ filename, autoload: true });
  const toRecord = (doc: Record<string, unknown>): T => {
    const { _id, ...record } = doc;
    return record as T;
  };
  return {
    async insert(record) {
      await db.insert({ ...record, _id: record.id });
      return record;
    },
    async get(id) {
      const doc = await db.findOne({ _id: id });
      return doc ? toRecord(doc as Record<string, unknown>) : undefined;
    },
    async find(query = {}) {
      const docs = await db.find(query).sort({ createdAt: 1, _id: 1 });
      return docs.map((doc) => toRecord(doc as Record<string, unknown>));
    },
    async put(record) {
      await db.update({ _id: record.id }, { ...record, _id: record.id }, { upsert: true });
      return record;
    },
    async close() {
      // Every write is on disk once its promise resolves, and nedb compacts the file on the next load.
    },
  };
}
