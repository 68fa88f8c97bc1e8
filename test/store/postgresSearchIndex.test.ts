import { expect } from 'chai';
import type { Pool } from 'pg';
import { migrate, readMigrations } from '../../src/store/postgres/migrate';
import { openPostgresPool } from '../../src/store/postgres/postgresPool';
import { createPostgresEventStore } from '../../src/store/postgres/postgresEventStore';
import { indexedStore } from '../../src/store/search/indexedStore';
import { createPostgresSearchIndex } from '../../src/store/search/postgresSearchIndex';
import { RANKED_WINDOW } from '../../src/store/search/postgresSearchQuery';
import type { RowHit, SearchIndex } from '../../src/store/search/searchIndex';
import { describeWithPostgres } from '../helpers/store/postgresDatabase';
import { turnRows, type TurnWords } from '../server/search/searchRows';

const turn = (user: string): TurnWords => ({ user, agent: 'fine', command: 'true' });

/** Every hit of `words` in `threadIds`, page after page of `limit`, as `thread:seq`. */
async function allHits(index: SearchIndex, words: string[], threadIds: string[], limit: number): Promise<string[]> {
  const seen: string[] = [];
  for (let offset = 0; ; offset += limit) {
    const page: RowHit[] = await index.search({ words, threadIds, offset, limit });
    seen.push(...page.map((hit) => `${hit.threadId}:${hit.seq}`));
    if (page.length < limit) return seen;
  }
}

describeWithPostgres('PostgreSQL search index (issue 31)', (db) => {
  let pool: Pool;
  let index: SearchIndex;
  beforeEach(async () => {
    pool = openPostgresPool({ url: db().url, max: 4 });
    await migrate(pool);
    index = createPostgresSearchIndex(pool, () => {});
  });
  afterEach(async () => {
    await index.close();
    await pool.end();
  });

  it('ranks the newest matches by score, then gives older ones newest first, each hit once across pages', async () => {
    const store = indexedStore(createPostgresEventStore({ pool, origin: 'test', ownsPool: false }), index);
    const threadId = `thr_window${Date.now()}`;
    // Turn 1 says "okapi" three times but is older than the ranked window; the newest turn says it twice.
    const turns = Array.from({ length: RANKED_WINDOW + 30 }, (_, i) => turn(i === 0 ? 'okapi okapi okapi' : `okapi number ${i}`));
    turns[turns.length - 5] = turn('okapi and okapi again');
    for (let i = 0; i < turns.length; i += 50)
      await store.append(turns.slice(i, i + 50).flatMap((words, j) => turnRows(threadId, i + j + 1, words)));
    await index.flushed();
    const userSeq = (turnNumber: number) => `${threadId}:${(turnNumber - 1) * 8 + 2}`;

    // Pages of 45: one of them holds the window's end and the first older matches.
    const hits = await allHits(index, ['okapi'], [threadId], 45);
    expect(hits).to.have.length(turns.length);
    expect(new Set(hits).size).to.equal(turns.length);
    // The twice-said one leads the window; the window's others follow newest first (equal scores).
    expect(hits[0]).to.equal(userSeq(turns.length - 4));
    expect(hits[1]).to.equal(userSeq(turns.length));
    // Past the window, age decides, not the score: the three-times-said first turn comes last.
    expect(hits.at(-1)).to.equal(userSeq(1));
    expect(hits.at(-2)).to.equal(userSeq(2));
    expect(hits[RANKED_WINDOW]).to.equal(userSeq(turns.length - RANKED_WINDOW));
  });
});

describeWithPostgres('PostgreSQL search index over a database indexed before migration 006 (issue 31)', (db) => {
  it('keeps finding the rows indexed before, and ranks rows indexed after as newer', async () => {
    const pool = openPostgresPool({ url: db().url, max: 4 });
    try {
      await migrate(
        pool,
        (await readMigrations()).filter((migration) => migration.version <= 5),
      );
      // What a server of migration 005 wrote.
      await pool.query(
        `INSERT INTO search_docs (thread_id, seq, kind, text) VALUES
           ('thr_old', 2, 'user', 'where is the wombat'), ('thr_old', 8, 'agent', 'The wombat sleeps, wombat.')`,
      );
      await pool.query(`INSERT INTO search_heads (thread_id, last_seq) VALUES ('thr_old', 8)`);
      expect(await migrate(pool)).to.include(6);

      const index = createPostgresSearchIndex(pool, () => {});
      try {
        expect((await index.heads()).get('thr_old')).to.equal(8);
        const before = await index.search({ words: ['wombat'], threadIds: ['thr_old', 'thr_new'], offset: 0, limit: 10 });
        expect(before.map((hit) => [hit.threadId, hit.seq, hit.kind, hit.text])).to.deep.equal([
          ['thr_old', 8, 'agent', 'The wombat sleeps, wombat.'],
          ['thr_old', 2, 'user', 'where is the wombat'],
        ]);
        const store = indexedStore(createPostgresEventStore({ pool, origin: 'test', ownsPool: false }), index);
        await store.append(turnRows('thr_new', 1, turn('a wombat too')));
        await index.flushed();
        const after = await index.search({ words: ['wombat'], threadIds: ['thr_old', 'thr_new'], offset: 0, limit: 10 });
        expect(after.map((hit) => `${hit.threadId}:${hit.seq}`)).to.deep.equal(['thr_old:8', 'thr_new:2', 'thr_old:2']);
      } finally {
        await index.close();
      }
    } finally {
      await pool.end();
    }
  });
});

describeWithPostgres('PostgreSQL search index statistics (issue 31)', (db) => {
  it('analyzes a table that holds rows but no statistics (a restore, an older version), so common words walk', async () => {
    const pool = openPostgresPool({ url: db().url, max: 4 });
    try {
      await migrate(pool);
      const client = await pool.connect();
      try {
        await client.query(
          `INSERT INTO search_docs (thread_id, seq, kind, text)
           SELECT 'thr_restored', n, 'agent', 'common words ' || n FROM generate_series(1, 3000) AS n`,
        );
        // Counters reach pg_stat_user_tables when a session flushes them; this one does so at once.
        await client.query('SELECT pg_stat_force_next_flush()');
      } finally {
        client.release();
      }
      const statistics = () =>
        pool.query(`SELECT 1 FROM pg_stats WHERE tablename = 'search_docs' AND attname = 'tsv' AND most_common_elems IS NOT NULL`);
      expect((await statistics()).rowCount).to.equal(0);
      const index = createPostgresSearchIndex(pool, () => {});
      await index.close();
      expect((await statistics()).rowCount).to.equal(1);
    } finally {
      await pool.end();
    }
  });
});
