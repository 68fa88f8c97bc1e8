import { from, lastValueFrom } from 'rxjs';
import type { EventStore, NewThreadEvent } from '../../../src/store/eventStore';

/**
 * Wraps the server's store so a test can catch the next append in flight and decide its fate after the
 * world changed (link cut, daemon killed): `store` it (the ack then goes to a link that is gone) or `drop`
 * it (never stored, as when the server crashed before writing).
 */
export interface StoreGate {
  store: EventStore;
  /** Resolves with the events of the next append, which waits until `store` or `drop`. */
  catchNext(): Promise<readonly NewThreadEvent[]>;
  release(): void;
  drop(): void;
}

export function gateStore(inner: EventStore): StoreGate {
  let armed: ((events: readonly NewThreadEvent[]) => void) | undefined;
  let decide: ((fate: 'store' | 'drop') => void) | undefined;
  return {
    store: {
      append(events) {
        if (!armed) return inner.append(events);
        const caught = armed;
        armed = undefined;
        caught(events);
        return new Promise<'store' | 'drop'>((resolve) => (decide = resolve)).then(async (fate) => {
          if (fate === 'drop') throw new Error('dropped by the test');
          return lastValueFrom(from(inner.append(events)));
        });
      },
      list: (threadId, options) => inner.list(threadId, options),
      lastSeq: (threadId) => inner.lastSeq(threadId),
      deleteThread: (threadId) => inner.deleteThread(threadId),
      close: () => inner.close(),
    },
    catchNext: () => new Promise((resolve) => (armed = resolve)),
    release: () => decide?.('store'),
    drop: () => decide?.('drop'),
  };
}
