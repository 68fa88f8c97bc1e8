import type { Pool } from 'pg';
import type { RowHit, RowSearch } from './searchIndex';

/** How many of the newest matching rows `ts_rank` orders; older matches follow newest first. */
export const RANKED_WINDOW = 200;
/**
 * Newest indexed rows read one by one for the window before the GIN index is asked instead: a word in more
 * than 4% of the rows fills the window within them; a rarer one costs this walk (every query's floor: 10,000
 * cost ~30 ms at load 15) plus a GIN lookup of its older matches (fewer than 4% of the table). Bounds the
 * work whatever the planner's statistics say.
 */
export const NEWEST_WALK_ROWS = 5_000;

interface Scored {
  doc_id: string;
  score: number;
}

/**
 * Rows holding every word, best first, without scoring every match: the newest `RANKED_WINDOW` matches
 * (by `doc_id`, migration 006) ranked by `ts_rank`, then the older matches newest first. Every hit holds
 * every word (the GIN match decides, as before); only the order of matches beyond the window is by age
 * rather than by score. Scoring every match was what made a common word slow: at 1,000,000 rows a word in
 * most answers matches ~200,000 rows, each fetched and scored for one page. The window is found by walking
 * the newest `NEWEST_WALK_ROWS` rows (a common word fills it there) and, when that is not enough, through
 * the GIN index among the older rows (a rare word has few). The query is the words joined by AND
 * (`plainto_tsquery` of the words alone: `websearch_to_tsquery` would read a searched "or" as an operator).
 */
export async function searchNewestRanked(
  pool: Pool,
  { words, threadIds, offset, limit }: RowSearch,
  walkRows = NEWEST_WALK_ROWS,
): Promise<RowHit[]> {
  if (words.length === 0 || threadIds.length === 0) return [];
  const query = words.join(' ');
  const { rows: newest } = await pool.query<{ doc_id: string | null }>('SELECT max(doc_id) AS doc_id FROM search_docs');
  if (newest[0]?.doc_id == null) return [];
  // The newest ids split the table: a common word fills the window above `walkEnd`; below it, the GIN decides.
  const walkEnd = Number(newest[0].doc_id) - walkRows;
  const recent = await pool.query<Scored>(
    `SELECT doc_id, ts_rank(tsv, plainto_tsquery('simple', $1)) AS score FROM search_docs
     WHERE doc_id > $3 AND tsv @@ plainto_tsquery('simple', $1) AND thread_id = ANY($2)
     ORDER BY doc_id DESC LIMIT ${RANKED_WINDOW}`,
    [query, threadIds, walkEnd],
  );
  const window: Scored[] = recent.rows;
  if (window.length < RANKED_WINDOW && walkEnd > 0) {
    // `doc_id + 0`: ordered by a sort of the GIN's matches, never by walking the whole btree for them.
    const older = await pool.query<Scored>(
      `SELECT doc_id, ts_rank(tsv, plainto_tsquery('simple', $1)) AS score FROM search_docs
       WHERE doc_id <= $3 AND tsv @@ plainto_tsquery('simple', $1) AND thread_id = ANY($2)
       ORDER BY doc_id + 0 DESC LIMIT $4`,
      [query, threadIds, walkEnd, RANKED_WINDOW - window.length],
    );
    window.push(...older.rows);
  }
  const ranked = window.sort((a, b) => b.score - a.score || Number(b.doc_id) - Number(a.doc_id));
  const page = ranked.slice(offset, offset + limit).map((row) => row.doc_id);
  const hits = page.length === 0 ? [] : await rowsOf(pool, page);
  if (window.length < RANKED_WINDOW || offset + limit <= RANKED_WINDOW) return hits;
  const beyond = await pool.query<RowSql>(
    `SELECT thread_id, seq, kind, text FROM search_docs
     WHERE tsv @@ plainto_tsquery('simple', $1) AND thread_id = ANY($2) AND doc_id < $3
     ORDER BY doc_id DESC OFFSET $4 LIMIT $5`,
    [query, threadIds, oldestOf(ranked), Math.max(0, offset - RANKED_WINDOW), limit - hits.length],
  );
  return [...hits, ...beyond.rows.map(hitOf)];
}

interface RowSql {
  doc_id?: string;
  thread_id: string;
  seq: number;
  kind: RowHit['kind'];
  text: string;
}

/** The rows of these doc ids, in the order given. */
async function rowsOf(pool: Pool, docIds: readonly string[]): Promise<RowHit[]> {
  const { rows } = await pool.query<RowSql>('SELECT doc_id, thread_id, seq, kind, text FROM search_docs WHERE doc_id = ANY($1)', [docIds]);
  const byId = new Map(rows.map((row) => [row.doc_id!, row]));
  // A row removed between the two queries (its thread deleted) is left out.
  return docIds.flatMap((id) => {
    const row = byId.get(id);
    return row ? [hitOf(row)] : [];
  });
}

const oldestOf = (rows: readonly Scored[]) =>
  rows.reduce((oldest, row) => (Number(row.doc_id) < Number(oldest) ? row.doc_id : oldest), rows[0]!.doc_id);

const hitOf = (row: RowSql): RowHit => ({ threadId: row.thread_id, seq: row.seq, kind: row.kind, text: row.text });
