import { from, tap } from 'rxjs';
import type { EventStore } from '../../store/eventStore';
import { canAppendAt, type ConditionalAppend } from '../../store/conditionalAppend';
import type { EventHub } from './eventHub';

/**
 * The store the daemon's pipeline writes through: every appended batch is published to the hub once stored,
 * whoever produced it (intake, agent, stop). Reads pass straight through.
 */
export function publishingStore(store: EventStore, hub: EventHub): EventStore {
  const published: EventStore = {
    append: (events) => from(store.append(events)).pipe(tap((rows) => hub.publish(rows))),
    list: (threadId, options) => store.list(threadId, options),
    lastSeq: (threadId) => store.lastSeq(threadId),
    deleteThread: (threadId) => store.deleteThread(threadId),
    // The server owns the store's lifetime; a daemon closing must not close it under the HTTP readers.
    close: async () => {},
  };
  // A store shared by replicas also appends on a condition (the batch applier's re-sends); publish those too.
  if (!canAppendAt(store)) return published;
  const conditional: EventStore & ConditionalAppend = {
    ...published,
    appendAt: async (events, firstSeqs) => {
      const rows = await store.appendAt(events, firstSeqs);
      hub.publish(rows);
      return rows;
    },
  };
  return conditional;
}
