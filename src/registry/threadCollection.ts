import type { Collection } from './collection';
import type { ThreadRecord } from './records';

/**
 * The threads of the registry as every reader sees them: a thread whose delete began (`deleting`) is gone
 * already, so a crash in the middle of a delete never shows half a thread. The delete itself marks, lists
 * and removes them.
 */
export interface ThreadCollection extends Collection<ThreadRecord> {
  /**
   * Replaces a live record; does nothing to one being deleted or removed: a change that read the record
   * before its delete began (a prompt finishing) must not bring it back. New threads are `insert`ed.
   */
  put(record: ThreadRecord): Promise<ThreadRecord>;
  /**
   * The durable tombstone a delete starts with; resolves once it is durable. Marked again, it takes what the
   * delete learnt meanwhile (the session a host still has to remove).
   */
  markDeleting(id: string, learnt?: Pick<ThreadRecord, 'providerThreadId'>): Promise<void>;
  /** Threads whose delete began and did not finish (a crash, a restart): the start finishes them. */
  deleting(): Promise<ThreadRecord[]>;
}

/**
 * Writes a shared store makes in one statement, so the tombstone holds against other processes too (replicas
 * on one PostgreSQL): the in-process queue below only orders this process's own writes.
 */
export interface AtomicFlagWrites<T> {
  putUnlessFlagged(record: T, flag: string): Promise<boolean>;
  mergeFields(id: string, fields: Partial<T>): Promise<void>;
}

export function threadCollectionOf(records: Collection<ThreadRecord> & Partial<AtomicFlagWrites<ThreadRecord>>): ThreadCollection {
  // Read-then-write changes run one at a time here, so a mark never falls between a put's read and its write.
  let writes: Promise<unknown> = Promise.resolve();
  const serially = <T>(work: () => Promise<T>): Promise<T> => {
    const run = writes.then(work);
    writes = run.catch(() => undefined);
    return run;
  };
  const live = (record: ThreadRecord | undefined) => (record?.deleting ? undefined : record);
  return {
    insert: (record) => records.insert(record),
    get: async (id) => live(await records.get(id)),
    find: async (query) => (await records.find(query)).filter((record) => !record.deleting),
    put: (record) =>
      serially(async () => {
        if (records.putUnlessFlagged) await records.putUnlessFlagged(record, 'deleting');
        else if (live(await records.get(record.id))) await records.put(record);
        return record;
      }),
    markDeleting: (id, learnt = {}) =>
      serially(async () => {
        if (records.mergeFields) return records.mergeFields(id, { ...learnt, deleting: true });
        const record = await records.get(id);
        if (record && !(record.deleting && Object.keys(learnt).length === 0)) await records.put({ ...record, ...learnt, deleting: true });
      }),
    deleting: async () => (await records.find({})).filter((record) => record.deleting === true),
    update: (record) => serially(async () => (live(await records.get(record.id)) ? records.update(record) : false)),
    remove: (id) => serially(() => records.remove(id)),
    take: (id) => serially(() => records.take(id)),
    close: () => records.close(),
  };
}
