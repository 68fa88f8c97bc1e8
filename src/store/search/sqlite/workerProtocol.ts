import type { RowSearch } from '../searchIndex';
import type { SearchDoc } from '../searchableText';

/** What the main thread asks of the search worker, about the index file `file` (opened on first use). */
export type SearchWorkerRequest = { file: string } & (
  | { op: 'add'; docs: SearchDoc[]; heads: [string, number][] }
  | { op: 'remove'; id: number; threadId: string }
  | { op: 'heads'; id: number }
  | { op: 'search'; id: number; query: RowSearch }
  | { op: 'flush'; id: number }
  | { op: 'close'; id: number }
);

/** The answer to request `id` (`value` or `error`), or a line for the log of the index of `file`. */
export type SearchWorkerAnswer = { id: number; value?: unknown; error?: string } | { file: string; log: string };

/** The worker thread's nice value on Linux: under a saturated intake the appends get the CPU first. */
export const SEARCH_WORKER_NICENESS = 10;
