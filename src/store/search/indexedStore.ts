import { lastValueFrom, from } from 'rxjs';
import { canAppendAt, type ConditionalAppend } from '../conditionalAppend';
import type { EventStore } from '../eventStore';
import type { SearchIndex } from './searchIndex';

/**
 * The store with its search index kept up: every stored batch is handed to the index once the append is
 * done (the index queues it, so the append never waits), and a thread's delete removes its entries after
 * its rows are gone. Reads pass straight through.
 */
export function indexedStore<S extends EventStore>(store: S, index: SearchIndex): S {
  const indexed: EventStore = {
    // A Promise whatever the store answers with, so a store whose append is narrowed to one (PostgreSQL) keeps its type.
    append: async (events) => {
      const rows = await lastValueFrom(from(store.append(events)), { defaultValue: [] });
      index.add(rows);
      return rows;
    },
    list: (threadId, options) => store.list(threadId, options),
    lastSeq: (threadId) => store.lastSeq(threadId),
    async deleteThread(threadId) {
      await store.deleteThread(threadId);
      await index.removeThread(threadId);
    },
    async close() {
      await store.close();
      await index.close();
    },
  };
  if (!canAppendAt(store)) return { ...store, ...indexed };
  const conditional: EventStore & ConditionalAppend = {
    ...indexed,
    appendAt: async (events, firstSeqs) => {
      const rows = await store.appendAt(events, firstSeqs);
      index.add(rows);
      return rows;
    },
  };
  return { ...store, ...conditional };
}
