import type { Pool } from 'pg';
import type { StoredThreadEvent } from '../eventStore';
import type { RowHit, SearchIndex } from './searchIndex';
import { searchDocOf } from './searchableText';

/**
 * The PostgreSQL engine: `search_docs` (migration 005) with a generated `tsvector` under a GIN index, ranked
 * by `ts_rank`. Stored rows are queued and written in one statement per batch, right after their append
 * commits (an append never waits for it); batches go one at a time, so a thread's delete comes after its
 * rows. The query is the words joined by AND (`plainto_tsquery` of the words alone: `websearch_to_tsquery`
 * would read a searched "or" as an operator; the embedded engine has none either).
 */
export function createPostgresSearchIndex(pool: Pool, log: (message: string) => void): SearchIndex {
  let pending: StoredThreadEvent[] = [];
  let writes: Promise<void> = Promise.resolve();
  let scheduled = false;
  const run = (work: () => Promise<unknown>, what: string) => {
    writes = writes.then(work).then(
      () => undefined,
      (error: unknown) => log(`search index: ${what} failed (${String(error)}); the next start catches it up`),
    );
    return writes;
  };
  const flush = () => {
    scheduled = false;
    const rows = pending;
    pending = [];
    if (rows.length === 0) return writes;
    const docs = rows.flatMap((row) => searchDocOf(row) ?? []);
    const heads = new Map<string, number>();
    for (const row of rows) heads.set(row.threadId, Math.max(row.seq, heads.get(row.threadId) ?? 0));
    return run(
      () =>
        pool.query(
          `WITH d AS (
             INSERT INTO search_docs (thread_id, seq, kind, text)
             SELECT t, s, k, x FROM json_to_recordset($1) AS r(t text, s integer, k text, x text)
             ON CONFLICT DO NOTHING)
           INSERT INTO search_heads (thread_id, last_seq)
           SELECT t, s FROM json_to_recordset($2) AS h(t text, s integer) ORDER BY t
           ON CONFLICT (thread_id) DO UPDATE SET last_seq = greatest(search_heads.last_seq, EXCLUDED.last_seq)`,
          [
            JSON.stringify(docs.map((doc) => ({ t: doc.threadId, s: doc.seq, k: doc.kind, x: doc.text.replaceAll('\u0000', '') }))),
            JSON.stringify([...heads].map(([t, s]) => ({ t, s }))),
          ],
        ),
      `indexing ${rows.length} rows`,
    );
  };
  const flushed = () => flush();

  return {
    add(rows) {
      if (rows.length === 0) return;
      pending.push(...rows);
      if (!scheduled) {
        scheduled = true;
        setImmediate(() => void flush());
      }
    },
    async removeThread(threadId) {
      void flush();
      await run(async () => {
        await pool.query('DELETE FROM search_docs WHERE thread_id = $1', [threadId]);
        await pool.query('DELETE FROM search_heads WHERE thread_id = $1', [threadId]);
      }, `removing thread ${threadId}`);
    },
    async heads() {
      await flushed();
      const { rows } = await pool.query<{ thread_id: string; last_seq: number }>('SELECT thread_id, last_seq FROM search_heads');
      return new Map(rows.map((row) => [row.thread_id, row.last_seq]));
    },
    async search({ words, threadIds, offset, limit }) {
      if (words.length === 0 || threadIds.length === 0) return [];
      const { rows } = await pool.query<{ thread_id: string; seq: number; kind: RowHit['kind']; text: string }>(
        `SELECT thread_id, seq, kind, text FROM search_docs, plainto_tsquery('simple', $1) AS q
         WHERE tsv @@ q AND thread_id = ANY($2)
         ORDER BY ts_rank(tsv, q) DESC, thread_id, seq DESC OFFSET $3 LIMIT $4`,
        [words.join(' '), threadIds, offset, limit],
      );
      return rows.map((row) => ({ threadId: row.thread_id, seq: row.seq, kind: row.kind, text: row.text }));
    },
    flushed: async () => {
      await flushed();
    },
    async close() {
      await flushed();
    },
  };
}
