import type { StoredThreadEvent } from '../eventStore';
import type { SearchableKind } from './searchableText';

export interface RowSearch {
  /** Query words (`queryWordsOf`): a row matches when it holds every one. */
  words: readonly string[];
  /** Only rows of these threads (the live, permitted ones: deleted and unasked-for archived threads are not). */
  threadIds: readonly string[];
  offset: number;
  limit: number;
}

export interface RowHit {
  threadId: string;
  seq: number;
  kind: SearchableKind;
  text: string;
}

/**
 * The full-text index of thread rows, one per engine (a file-backed one in the data dir, a table in
 * PostgreSQL). It is a derived copy of the store: `add` queues and returns at once (an append never waits
 * for it), `heads` says how far each thread is indexed so a start can catch up what a crash lost, and a
 * torn or missing index reads as empty, which that catch-up turns into a rebuild.
 */
export interface SearchIndex {
  /** Queues stored rows (any rows: the index keeps what is searchable and remembers the seq). Never blocks. */
  add(rows: readonly StoredThreadEvent[]): void;
  /** Forgets a thread; resolves once rows queued before it are dealt with, so none comes back. */
  removeThread(threadId: string): Promise<void>;
  /** The last seq indexed of each thread (after what is queued now is written). */
  heads(): Promise<Map<string, number>>;
  /** Best first: rows holding every word, ranked; `limit + 1` asked tells the caller there is a next page. */
  search(query: RowSearch): Promise<RowHit[]>;
  /** Resolves once everything queued so far is searchable. */
  flushed(): Promise<void>;
  close(): Promise<void>;
}
