import { expect } from 'chai';
import type { Pool } from 'pg';
import { migrate } from '../../src/store/postgres/migrate';
import { openPostgresPool } from '../../src/store/postgres/postgresPool';
import { createPostgresSearchIndex } from '../../src/store/search/postgresSearchIndex';
import { tsqueryOf, tsvectorOf } from '../../src/store/search/postgresTsvector';
import { queryWordsOf } from '../../src/store/search/searchableText';
import { describeWithPostgres } from '../helpers/store/postgresDatabase';

/** What the database itself made of a row's text before migration 007 (and still makes for a writer that sends no vector). */
const DATABASE_CUT = `to_tsvector('simple', regexp_replace($1, '[^[:alnum:]]+', ' ', 'g'))`;

const TEXTS = [
  'Run `npm test -- --grep wombat` then check ./src/index.ts:42',
  'Ünïcödé façade naïve Straße ΑΘΗΝΑ москва 東京タワー 123abc 4.5e10 x-ray',
  'quotes \'single\' "double" back\\slash & | ! <-> :* (a)',
  // One word said 300 times (a word keeps 255 positions), and 17,000 words (positions stop at 16,383).
  Array.from({ length: 300 }, () => 'again').join(' '),
  Array.from({ length: 17_000 }, (_, i) => `w${i % 5_000}`).join(' '),
  // A word past PostgreSQL's 2,047 bytes is left out, and takes no position.
  `before ${'a'.repeat(3_000)} after`,
  '',
];

describeWithPostgres('PostgreSQL search vectors cut by the server (issue 31)', (db) => {
  let pool: Pool;
  before(async () => {
    pool = openPostgresPool({ url: db().url, max: 2 });
    await migrate(pool);
  });
  after(() => pool.end());

  it('gives every text the vector the database made of it (same words, same positions, so the same ranks)', async () => {
    for (const text of TEXTS) {
      const { rows } = await pool.query<{ server: string; database: string }>(
        `SELECT $2::tsvector::text AS server, ${DATABASE_CUT}::text AS database`,
        [text, tsvectorOf(text)],
      );
      expect(rows[0]!.server, text.slice(0, 40)).to.equal(rows[0]!.database);
    }
  });

  it('matches a query the way plainto_tsquery did, operators and quotes read as words', async () => {
    for (const query of ['wombat npm', 'or | !not', "it's", 'СТРАССЕ Straße']) {
      const { rows } = await pool.query<{ server: string; database: string }>(
        `SELECT $2::tsquery::text AS server, plainto_tsquery('simple', $1)::text AS database`,
        [queryWordsOf(query).join(' '), tsqueryOf(queryWordsOf(query))],
      );
      expect(rows[0]!.server, query).to.equal(rows[0]!.database);
    }
    expect(tsqueryOf(['a'.repeat(3_000)])).to.equal(undefined);
  });

  it('still finds a row written without a vector (a replica on the code before migration 007)', async () => {
    await pool.query(`INSERT INTO search_docs (thread_id, seq, kind, text) VALUES ('thr_older', 2, 'user', 'where is the quokka?')`);
    const index = createPostgresSearchIndex(pool, () => {});
    try {
      const hits = await index.search({ words: ['quokka'], threadIds: ['thr_older'], offset: 0, limit: 10 });
      expect(hits.map((hit) => `${hit.threadId}:${hit.seq}`)).to.deep.equal(['thr_older:2']);
    } finally {
      await index.close();
    }
  });
});
