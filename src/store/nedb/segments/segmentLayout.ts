import { createHash } from 'node:crypto';
import path from 'node:path';

/** The file, inside the data dir, that held every thread's events before segments (one document per line). */
export const LEGACY_EVENTS_FILE_NAME = 'thread-events.db';
/** The folder of the segment layout; it appears (by one rename) only once a migration is complete. */
export const EVENTS_DIR_NAME = 'events';
/** Where a migration writes until it is complete; removed and started over when a migration was cut off. */
export const MIGRATING_DIR_NAME = 'events.migrating';
/** thread → last seq and file size, so an append continues a thread without reading its file. */
export const INDEX_FILE_NAME = 'index.json';

/**
 * One file per thread, named by a hash of its id (ids are user-chosen text, not file names), spread over 256
 * folders so no folder grows past a few thousand entries.
 */
export function threadFileOf(eventsDir: string, threadId: string): string {
  const hash = createHash('sha256').update(threadId).digest('hex').slice(0, 40);
  return path.join(eventsDir, hash.slice(0, 2), `${hash}.db`);
}

/**
 * `_id` of a row inside its thread's file: the seq, zero-padded so nedb's `_id` order (text order) is seq
 * order. The thread is the file, so the id needs no thread part.
 */
export function segmentId(seq: number): string {
  return String(seq).padStart(12, '0');
}
