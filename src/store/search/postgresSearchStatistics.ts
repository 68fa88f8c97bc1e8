import type { Pool } from 'pg';

/** Docs written between two looks at the table's statistics. */
const CHECK_EVERY_DOCS = 5_000;

export interface SearchStatistics {
  /** Counts docs written; now and then looks whether the statistics are out of date and refreshes them. */
  written(docs: number): void;
  /** Waits for a refresh under way. */
  close(): Promise<void>;
}

/**
 * Keeps `search_docs`' planner statistics (which words are common) up to date, because the search query's
 * plan depends on them: a common word must walk the newest rows, a rare one use the GIN index; without
 * statistics the planner sends every word through the GIN index, and a common one then reads ~200,000
 * rows (a second instead of milliseconds at 1,000,000 rows). Autovacuum does this where it runs and keeps
 * up; where it is off or behind, this runs `ANALYZE search_docs` once the rows changed since the last
 * analyze outnumber the ones before it (the table doubled: a few times while it grows from empty, then rarely). It runs on
 * its own connection, beside the index's writes and never before an append.
 */
export function keepSearchStatistics(pool: Pool, log: (message: string) => void): SearchStatistics {
  let sinceLook = 0;
  let looking: Promise<void> | undefined;
  const look = () => {
    looking ??= refreshIfStale(pool)
      .catch((error: unknown) => log(`search index: refreshing statistics failed (${String(error)})`))
      .finally(() => (looking = undefined));
  };
  // A database whose rows came from elsewhere (a restore, an older version) is looked at once at start.
  look();
  return {
    written(docs) {
      sinceLook += docs;
      if (sinceLook < CHECK_EVERY_DOCS || looking) return;
      sinceLook = 0;
      look();
    },
    close: async () => {
      await looking;
    },
  };
}

async function refreshIfStale(pool: Pool): Promise<void> {
  const { rows } = await pool.query<{ live: string; changed: string }>(
    `SELECT n_live_tup AS live, n_mod_since_analyze AS changed FROM pg_stat_user_tables WHERE relid = 'search_docs'::regclass`,
  );
  const [row] = rows;
  if (!row) return;
  if (Number(row.changed) > 1_000 + Number(row.live) / 2) await pool.query('ANALYZE search_docs');
}
