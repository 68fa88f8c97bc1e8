import { from, tap } from 'rxjs';
import type { EventStore, StoredThreadEvent } from '../../store/eventStore';
import { canAppendAt, type ConditionalAppend } from '../../store/conditionalAppend';
import type { EventHub } from './eventHub';

/** Hears of every batch stored through this process, after the hub: the webhook notifier. */
export type StoredRowsListener = (rows: readonly StoredThreadEvent[]) => void;

/**
 * The store the daemon's pipeline writes through: every appended batch is published to the hub once stored,
 * whoever produced it (intake, agent, stop), then told to `stored` (rows this process stored, never those the
 * replica feed brings from other replicas). Reads pass straight through.
 */
export function publishingStore(store: EventStore, hub: EventHub, stored: StoredRowsListener = () => {}): EventStore {
  const publish = (rows: readonly StoredThreadEvent[]) => {
    hub.publish(rows);
    stored(rows);
  };
  const published: EventStore = {
    append: (events) => from(store.append(events)).pipe(tap((rows) => publish(rows))),
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
      publish(rows);
      return rows;
    },
  };
  return conditional;
}
