import type { ObservableInput } from 'rxjs';

export type { EventScope, NewThreadEvent, StoredThreadEvent } from '../protocol/threadEvents';
import type { NewThreadEvent, StoredThreadEvent } from '../protocol/threadEvents';

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
  /**
   * Removes every row of the thread (and what the store kept to continue it): afterwards it reads as a thread
   * never written. Resolves once that is durable, so a restart never brings a row back; appends to the thread
   * must have stopped. Deleting a thread with no rows is done at once.
   */
  deleteThread(threadId: string): Promise<void>;
  close(): Promise<void>;
}
