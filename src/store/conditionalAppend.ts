import type { EventStore, NewThreadEvent, StoredThreadEvent } from './eventStore';

/**
 * A store several servers write to (PostgreSQL) can append on a condition, atomically: each thread's first
 * row must get the given seq, else nothing is stored. The batch applier uses it so a daemon batch re-sent to
 * a second replica while the first still commits it is stored once, not twice (docs/replicas.md).
 */
export interface ConditionalAppend {
  appendAt(events: readonly NewThreadEvent[], firstSeqs: Readonly<Record<string, number>>): Promise<StoredThreadEvent[]>;
}

/** A thread's head was not where `appendAt` expected it: nothing of the batch was stored. */
export class HeadMoved extends Error {
  constructor(
    readonly threadId: string,
    readonly expectedFirstSeq: number,
    readonly storedLastSeq: number,
  ) {
    super(`batch for ${threadId} expects seq ${expectedFirstSeq} next but the store is at ${storedLastSeq}`);
  }
}

export function canAppendAt(store: EventStore): store is EventStore & ConditionalAppend {
  return typeof (store as Partial<ConditionalAppend>).appendAt === 'function';
}
