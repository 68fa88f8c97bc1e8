import type { Pool } from 'pg';
import type { StoredThreadEvent } from '../eventStore';
import { keepSearchStatistics } from './postgresSearchStatistics';
import { searchNewestRanked } from './postgresSearchQuery';
import type { SearchIndex } from './searchIndex';
import { searchDocOf } from './searchableText';
import { tsvectorOf } from './postgresTsvector';

/** Stored rows written in one statement at most (about 40% of them searchable): bounds a statement's size. */
export const INDEX_WRITE_MAX_ROWS = 5_000;
/**
 * Connections a batch is written on side by side, each with its own threads. Under a saturated intake one
 * falls behind the appends (they hold the other connections and PostgreSQL shares its CPU by backend), but
 * two took the intake from 0.89× to 0.64× and the lag only from 75 s to 68 s at 1,000,000 rows
 * (docs/search.md).
 */
export const INDEX_WRITERS = 1;

/**
 * The PostgreSQL engine: `search_docs` (migrations 005–007) with a `tsvector` cut here (`tsvectorOf`) under a GIN index.
 * Stored rows are queued (an append never waits for them) and written one batch at a time (each split by
 * thread over `INDEX_WRITERS` connections): rows that arrive while a batch is being written all go in the
 * next one, so a burst of appends becomes a few large statements instead of one per append, and a
 * thread's delete comes after its rows. A batch
 * commits without waiting for its WAL flush (`synchronous_commit = off`): a crash may lose the last few
 * batches, docs and heads together, and the next start's catch-up reads those rows again.
 * Queries: `postgresSearchQuery.ts`; planner statistics: `postgresSearchStatistics.ts`.
 */
export function createPostgresSearchIndex(pool: Pool, log: (message: string) => void): SearchIndex {
  let pending: StoredThreadEvent[] = [];
  /** A write is queued and has not started: rows added now go in it. */
  let writeQueued = false;
  let work: Promise<void> = Promise.resolve();
  const statistics = keepSearchStatistics(pool, log);

  const run = (job: () => Promise<unknown>, what: () => string) => {
    work = work.then(job).then(
      () => undefined,
      (error: unknown) => log(`search index: ${what()} failed (${String(error)}); the next start catches it up`),
    );
    return work;
  };

  const writePending = async () => {
    writeQueued = false;
    const rows = pending;
    pending = [];
    await Promise.all(
      byThreadGroups(rows, INDEX_WRITERS).map(async (group) => {
        for (let start = 0; start < group.length; start += INDEX_WRITE_MAX_ROWS)
          statistics.written(await writeRows(pool, group.slice(start, start + INDEX_WRITE_MAX_ROWS)));
      }),
    );
  };

  return {
    add(rows) {
      if (rows.length === 0) return;
      pending.push(...rows);
      if (writeQueued) return;
      writeQueued = true;
      const count = () => `indexing ${pending.length} rows`;
      void run(writePending, count);
    },
    async removeThread(threadId) {
      await run(
        async () => {
          await pool.query('DELETE FROM search_docs WHERE thread_id = $1', [threadId]);
          await pool.query('DELETE FROM search_heads WHERE thread_id = $1', [threadId]);
        },
        () => `removing thread ${threadId}`,
      );
    },
    async heads() {
      await work;
      const { rows } = await pool.query<{ thread_id: string; last_seq: number }>('SELECT thread_id, last_seq FROM search_heads');
      return new Map(rows.map((row) => [row.thread_id, row.last_seq]));
    },
    search: (query) => searchNewestRanked(pool, query),
    flushed: () => work,
    async close() {
      await work;
      await statistics.close();
    },
  };
}

/** Rows split in up to `count` groups, a thread's rows all in one (so writers never touch the same head). */
function byThreadGroups(rows: readonly StoredThreadEvent[], count: number): StoredThreadEvent[][] {
  const groups: StoredThreadEvent[][] = Array.from({ length: count }, () => []);
  const groupOf = new Map<string, number>();
  for (const row of rows) {
    let group = groupOf.get(row.threadId);
    if (group === undefined) groupOf.set(row.threadId, (group = groupOf.size % count));
    groups[group]!.push(row);
  }
  return groups.filter((group) => group.length > 0);
}

/** One batch in one transaction (docs and heads together); resolves with the number of docs written. */
async function writeRows(pool: Pool, rows: readonly StoredThreadEvent[]): Promise<number> {
  const docs = rows.flatMap((row) => searchDocOf(row) ?? []);
  const heads = new Map<string, number>();
  for (const row of rows) heads.set(row.threadId, Math.max(row.seq, heads.get(row.threadId) ?? 0));
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN; SET LOCAL synchronous_commit = off');
    await client.query(
      `WITH d AS (
         INSERT INTO search_docs (thread_id, seq, kind, text, tsv)
         SELECT t, s, k, x, v::tsvector FROM json_to_recordset($1) AS r(t text, s integer, k text, x text, v text)
         ON CONFLICT DO NOTHING)
       INSERT INTO search_heads (thread_id, last_seq)
       SELECT t, s FROM json_to_recordset($2) AS h(t text, s integer) ORDER BY t
       ON CONFLICT (thread_id) DO UPDATE SET last_seq = greatest(search_heads.last_seq, EXCLUDED.last_seq)`,
      [
        JSON.stringify(
          docs.map((doc) => ({ t: doc.threadId, s: doc.seq, k: doc.kind, x: doc.text.replaceAll('\u0000', ''), v: tsvectorOf(doc.text) })),
        ),
        JSON.stringify([...heads].map(([t, s]) => ({ t, s }))),
      ],
    );
    await client.query('COMMIT');
    return docs.length;
  } catch (error) {
    // A connection that cannot roll back is left out of the pool.
    await client
      .query('ROLLBACK')
      .catch((rollback: unknown) => (broken = rollback instanceof Error ? rollback : new Error(String(rollback))));
    throw error;
  } finally {
    client.release(broken);
  }
}
