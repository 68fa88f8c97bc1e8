import type { ObservableInput } from 'rxjs';

/**
 * Where a thread event belongs: events emitted while a turn is open carry that turn's scope (rule E7);
 * anything else is thread-scoped.
 */
export type EventScope = { kind: 'turn'; turnId: string } | { kind: 'thread' };

/** A thread event before the store gives it a `seq` (spec 2.5). `data.providerThreadId` is always set. */
export interface NewThreadEvent {
  threadId: string;
  type: string;
  turnId: string | null;
  scope: EventScope;
  data: { providerThreadId: string } & Record<string, unknown>;
}

/** The stored row: `seq` is 1, 2, 3… per thread with no gap and no duplicate. */
export interface StoredThreadEvent extends NewThreadEvent {
  id: string;
  seq: number;
  createdAt: string;
}

export interface ListEventsOptions {
  /** Rows with `seq > afterSeq` (a cursor; 0 reads from the start). */
  afterSeq?: number;
  limit?: number;
}

/**
 * The port every stage and route writes and reads thread events through. Seq is assigned here, serialised
 * per thread, so callers never compute it. `append` returns an ObservableInput so an in-memory store can
 * answer synchronously inside marble tests while the nedb adapter answers with a Promise.
 */
export interface EventStore {
  append(events: readonly NewThreadEvent[]): ObservableInput<StoredThreadEvent[]>;
  list(threadId: string, options?: ListEventsOptions): Promise<StoredThreadEvent[]>;
  lastSeq(threadId: string): Promise<number>;
  close(): Promise<void>;
}
