import type { Pool } from 'pg';
import type { RowHit, RowSearch } from './searchIndex';
import { tsqueryOf } from './postgresTsvector';

/** How many of the newest matching rows `ts_rank` orders; older matches follow newest first. */
export const RANKED_WINDOW = 200;

interface PageRow {
  place: string | null;
  thread_id: string | null;
  seq: number | null;
  kind: RowHit['kind'] | null;
  text: string | null;
  window_size: string;
  window_end: string | null;
}

/**
 * Rows holding every word, best first, without scoring every match: the newest `RANKED_WINDOW` matches
 * (by `doc_id`, migration 006) ranked by `ts_rank`, then the older matches newest first. Every hit holds
 * every word (the GIN match decides, as before); only the order of matches beyond the window is by age
 * rather than by score. Scoring every match was what made a common word slow: at 1,000,000 rows a word in
 * most answers matches ~200,000 rows, each fetched and scored for one page. The planner finds the window by
 * walking `doc_id` backwards for a common word (stopping after ~200 matches) and through the GIN index for
 * a rare one, so the work is bounded either way. The query is the words joined by AND, each quoted
 * (`tsqueryOf`: cut by `wordsOf` as the rows are, so a searched "or" or "!" is a word, never an operator).
 */
export async function searchNewestRanked(pool: Pool, { words, threadIds, offset, limit }: RowSearch): Promise<RowHit[]> {
  const query = tsqueryOf(words);
  if (query === undefined || threadIds.length === 0) return [];
  // The tsquery is written out in each clause (not a CTE) so the planner sees the words and their frequency.
  const { rows } = await pool.query<PageRow>(
    `WITH win AS MATERIALIZED (
       SELECT doc_id, tsv FROM search_docs
       WHERE tsv @@ $1::tsquery AND thread_id = ANY($2)
       ORDER BY doc_id DESC LIMIT ${RANKED_WINDOW}),
     ranked AS (
       SELECT doc_id, row_number() OVER (ORDER BY ts_rank(tsv, $1::tsquery) DESC, doc_id DESC) AS place
       FROM win)
     SELECT p.place, d.thread_id, d.seq, d.kind, d.text, w.window_size, w.window_end
     FROM (SELECT count(*) AS window_size, min(doc_id) AS window_end FROM win) AS w
     LEFT JOIN (ranked AS p JOIN search_docs AS d USING (doc_id)) ON p.place > $3 AND p.place <= $3 + $4
     ORDER BY p.place`,
    [query, threadIds, offset, limit],
  );
  const hits = rows.flatMap((row) => (row.place === null ? [] : [hitOf(row)]));
  const { window_size: size, window_end: end } = rows[0]!;
  if (Number(size) < RANKED_WINDOW || offset + limit <= RANKED_WINDOW || end === null) return hits;
  const older = await pool.query<PageRow>(
    `SELECT thread_id, seq, kind, text FROM search_docs
     WHERE tsv @@ $1::tsquery AND thread_id = ANY($2) AND doc_id < $3
     ORDER BY doc_id DESC OFFSET $4 LIMIT $5`,
    [query, threadIds, end, Math.max(0, offset - RANKED_WINDOW), limit - hits.length],
  );
  return [...hits, ...older.rows.map(hitOf)];
}

const hitOf = (row: Pick<PageRow, 'thread_id' | 'seq' | 'kind' | 'text'>): RowHit => ({
  threadId: row.thread_id!,
  seq: row.seq!,
  kind: row.kind!,
  text: row.text!,
});
