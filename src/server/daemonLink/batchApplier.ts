import { lastValueFrom, from } from 'rxjs';
import type { EventStore, NewThreadEvent, StoredThreadEvent } from '../../store/eventStore';
import type { AppendBatch, StoredRef } from '../../protocol/daemonLink';
import { canAppendAt, HeadMoved } from '../../store/conditionalAppend';

/** The batch's seqs do not line up with the store: another writer touched the thread. Never stored. */
export class SeqConflict extends Error {
  constructor(
    readonly threadId: string,
    readonly expectedFirstSeq: number,
    readonly storedLastSeq: number,
  ) {
    super(`batch for ${threadId} expects seq ${expectedFirstSeq} next but the store is at ${storedLastSeq}`);
  }
}

/** Looks at the store again this many times when a conditional append finds a head moved (docs/replicas.md). */
const HEAD_MOVED_ATTEMPTS = 3;

export interface BatchApplier {
  /** Stores the part of the batch not stored yet (usually all of it, on a re-send none) and answers for all. */
  apply(batch: AppendBatch): Promise<StoredRef[]>;
}

/**
 * Exactly-once appends of daemon batches. The store itself is the record of what was applied: a thread's
 * rows are gapless, so `lastSeq` tells how much of a batch that expects seqs `first…first+n-1` is already
 * there (all of it after a lost ack, a prefix after a torn write, none normally). The stored prefix is
 * compared by type and turn before being trusted. Batches apply one at a time across all links, so a batch
 * re-sent on a new link while the old link still stores it waits, then finds itself stored.
 */
export function createBatchApplier(store: EventStore): BatchApplier {
  let queue: Promise<unknown> = Promise.resolve();

  const applyNow = async (batch: AppendBatch): Promise<StoredRef[]> => {
    const byThread = groupByThread(batch.events);
    const refs = new Map<NewThreadEvent, StoredRef>();
    const missing = new Set<NewThreadEvent>();
    const nextSeqs: Record<string, number> = {};
    for (const [threadId, events] of byThread) {
      const first = batch.firstSeqs[threadId];
      if (first === undefined) throw new SeqConflict(threadId, 0, await store.lastSeq(threadId));
      const last = await store.lastSeq(threadId);
      if (last < first - 1) throw new SeqConflict(threadId, first, last);
      const storedCount = Math.min(last - (first - 1), events.length);
      const stored = storedCount === 0 ? [] : await store.list(threadId, { afterSeq: first - 1, limit: storedCount });
      stored.forEach((row, i) => {
        if (!sameEvent(row, events[i]!)) throw new SeqConflict(threadId, first, last);
        refs.set(events[i]!, refOf(row));
      });
      for (const event of events.slice(storedCount)) missing.add(event);
      nextSeqs[threadId] = first + storedCount;
    }
    // Keep the batch's own order across threads, as the pipeline produced it.
    const toAppend = batch.events.filter((event) => missing.has(event));
    if (toAppend.length > 0) {
      // A store shared by several servers checks the seqs in the same statement that stores the rows: the same
      // batch re-sent to another replica while this one still commits it must not be stored twice.
      const rows = canAppendAt(store) ? await store.appendAt(toAppend, nextSeqs) : await lastValueFrom(from(store.append(toAppend)));
      rows.forEach((row, i) => refs.set(toAppend[i]!, refOf(row)));
    }
    return batch.events.map((event) => refs.get(event)!);
  };

  /** A head that moved under a conditional append: the other writer may have stored this very batch; look again. */
  const applyChecked = async (batch: AppendBatch): Promise<StoredRef[]> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await applyNow(batch);
      } catch (error) {
        if (!(error instanceof HeadMoved)) throw error;
        if (attempt >= HEAD_MOVED_ATTEMPTS) throw new SeqConflict(error.threadId, error.expectedFirstSeq, error.storedLastSeq);
      }
    }
  };

  return {
    apply(batch) {
      const applied = queue.then(() => applyChecked(batch));
      queue = applied.catch(() => undefined);
      return applied;
    },
  };
}

function groupByThread(events: readonly NewThreadEvent[]): Map<string, NewThreadEvent[]> {
  const byThread = new Map<string, NewThreadEvent[]>();
  for (const event of events) {
    const own = byThread.get(event.threadId);
    if (own) own.push(event);
    else byThread.set(event.threadId, [event]);
  }
  return byThread;
}

function sameEvent(row: StoredThreadEvent, event: NewThreadEvent): boolean {
  return row.type === event.type && row.turnId === event.turnId;
}

function refOf(row: StoredThreadEvent): StoredRef {
  return { seq: row.seq, id: row.id, createdAt: row.createdAt };
}
