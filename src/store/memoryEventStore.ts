import { randomUUID } from 'node:crypto';
import { of } from 'rxjs';
import type { EventStore, ListEventsOptions, NewThreadEvent, StoredThreadEvent } from './eventStore';

export interface MemoryEventStoreOptions {
  newId?(): string;
  now?(): Date;
}

/**
 * An EventStore that answers `append` synchronously (an observable that emits at once), so marble tests can
 * run the whole pipeline in virtual time. Rows come back in the order the events were given.
 */
export function createMemoryEventStore(options: MemoryEventStoreOptions = {}): EventStore {
  const newId = options.newId ?? randomUUID;
  const now = options.now ?? (() => new Date());
  const threads = new Map<string, StoredThreadEvent[]>();
  const rowsOf = (threadId: string) => threads.get(threadId) ?? [];
  const ownRows = (threadId: string) => threads.get(threadId) ?? threads.set(threadId, []).get(threadId)!;

  return {
    append(events: readonly NewThreadEvent[]) {
      const stored = events.map((event) => {
        const rows = ownRows(event.threadId);
        const row: StoredThreadEvent = { ...event, id: newId(), seq: rows.length + 1, createdAt: now().toISOString() };
        rows.push(row);
        return row;
      });
      return of(stored);
    },
    async list(threadId: string, { afterSeq = 0, limit }: ListEventsOptions = {}) {
      const after = rowsOf(threadId).filter((row) => row.seq > afterSeq);
      return limit === undefined ? after : after.slice(0, limit);
    },
    async lastSeq(threadId: string) {
      return rowsOf(threadId).length;
    },
    async deleteThread(threadId: string) {
      threads.delete(threadId);
    },
    async close() {},
  };
}
