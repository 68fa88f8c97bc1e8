import type { EventStore } from '../eventStore';
import type { SearchIndex } from './searchIndex';

/** Rows read from the store per page while catching up, and indexed before the next page is read. */
export const CATCH_UP_PAGE_ROWS = 2_000;

/**
 * Brings the index level with the store, in the background at start: each live thread's rows after the
 * seq the index last saw are indexed (every row of a thread the index never saw, so a missing or torn
 * index is rebuilt whole), and threads the index knows but the registry no longer has (deleted while the
 * index was not written) are removed. Rows appended meanwhile are indexed live; meeting them again is
 * harmless (an index adds a (thread, seq) once). Resolves with the number of rows read; `stop` ends it
 * between pages (a server closing), and the next start goes on from there.
 */
export async function catchUpIndex(
  store: EventStore,
  liveThreadIds: readonly string[],
  index: SearchIndex,
  stop?: AbortSignal,
): Promise<number> {
  const heads = await index.heads();
  const live = new Set(liveThreadIds);
  for (const threadId of heads.keys()) if (!live.has(threadId)) await index.removeThread(threadId);
  let read = 0;
  for (const threadId of liveThreadIds) {
    if (stop?.aborted) break;
    let afterSeq = heads.get(threadId) ?? 0;
    if ((await store.lastSeq(threadId)) <= afterSeq) continue;
    for (;;) {
      const rows = await store.list(threadId, { afterSeq, limit: CATCH_UP_PAGE_ROWS });
      if (rows.length === 0 || stop?.aborted) break;
      index.add(rows);
      await index.flushed();
      read += rows.length;
      afterSeq = rows[rows.length - 1]!.seq;
    }
  }
  return read;
}
