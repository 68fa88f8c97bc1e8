import { expect } from 'chai';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SEARCH_INDEX_FILE } from '../../../src/store/search/sqlite/sqliteSearchIndex';
import { startTestServer, type TestServer } from '../../helpers/server/harness';
import { describeWithPostgres } from '../../helpers/store/postgresDatabase';
import { search, threadWith } from './searchRows';

const WORDS = [
  { user: 'where is the wombat config', agent: 'The wombat config is in etc.', command: 'cat /etc/wombat.conf' },
  { user: 'and the numbat one?', agent: 'Next to the wombat one.', command: 'ls /etc' },
];

/** Hits as sortable keys, so two engines that rank alike but not identically compare equal on what they found. */
const found = async (t: TestServer, q: string) =>
  (await search(t, `q=${q}&limit=100`)).hits.map((hit) => `${hit.seq}:${hit.kind}:${hit.excerpt}:${JSON.stringify(hit.marks)}`).sort();

describe('search index of the embedded store at start (issue 31)', () => {
  let t: TestServer | undefined;
  afterEach(() => t?.close());

  async function restartedAfter(change: (file: string) => Promise<void>) {
    t = await startTestServer();
    await threadWith(t, { title: 'zoo' }, WORDS);
    const before = await found(t, 'wombat');
    await t.close({ keepData: true });
    await change(path.join(t.dataDir, SEARCH_INDEX_FILE));
    t = await startTestServer({ dataDir: t.dataDir });
    await t.server.searchCaughtUp;
    await t.server.search.flushed();
    return before;
  }

  it('finds the same rows after a restart, reading its file back', async () => {
    const before = await restartedAfter(async () => {});
    expect(before).to.have.length(4);
    expect(await found(t!, 'wombat')).to.deep.equal(before);
  });

  it('rebuilds a missing index from the store', async () => {
    const before = await restartedAfter((file) => rm(file));
    expect(await found(t!, 'wombat')).to.deep.equal(before);
  });

  it('rebuilds a torn index (a file cut short by a crash) from the store', async () => {
    const before = await restartedAfter(async (file) => {
      const bytes = await readFile(file);
      await writeFile(file, bytes.subarray(0, Math.floor(bytes.length / 2)));
    });
    expect(await found(t!, 'wombat')).to.deep.equal(before);
  });

  it('rebuilds a corrupt index (pages overwritten) from the store', async () => {
    const before = await restartedAfter(async (file) => {
      const bytes = await readFile(file);
      // Everything after SQLite's header page: the tables' pages hold garbage.
      for (let i = 4096; i < bytes.length; i++) bytes[i] = (i * 7919) % 251;
      await writeFile(file, bytes);
    });
    expect(await found(t!, 'wombat')).to.deep.equal(before);
  });

  it('rebuilds a file that is not an index at all from the store', async () => {
    const before = await restartedAfter((file) => writeFile(file, 'not a database\n'));
    expect(await found(t!, 'wombat')).to.deep.equal(before);
  });

  it('catches up rows the index never saw (a crash between the append and the index write)', async () => {
    t = await startTestServer();
    await threadWith(t, { title: 'first' }, WORDS.slice(0, 1));
    await t.close({ keepData: true });
    // The index as it was then: what a crash that lost the later index writes leaves.
    const file = path.join(t.dataDir, SEARCH_INDEX_FILE);
    const older = await readFile(file);
    t = await startTestServer({ dataDir: t.dataDir });
    await threadWith(t, { title: 'zoo' }, WORDS);
    const before = await found(t, 'wombat');
    await t.close({ keepData: true });
    await writeFile(file, older);
    t = await startTestServer({ dataDir: t.dataDir });
    await t.server.searchCaughtUp;
    await t.server.search.flushed();
    expect(before).to.have.length(7);
    expect(await found(t, 'wombat')).to.deep.equal(before);
  });
});

describe('search index file after a delete (issue 31)', () => {
  it('keeps no word or text of a deleted thread on disk after the next start', async () => {
    let t = await startTestServer();
    const gone = await threadWith(t, { title: 'gone' }, [{ user: 'the secret kakapo plan', agent: 'ok', command: 'ls' }]);
    await threadWith(t, { title: 'kept' }, WORDS);
    expect((await t.api(`/threads/${gone.id}`, { method: 'DELETE' })).status).to.equal(204);
    expect((await search(t, 'q=kakapo')).hits).to.deep.equal([]);
    await t.close({ keepData: true });
    t = await startTestServer({ dataDir: t.dataDir });
    try {
      expect((await search(t, 'q=wombat')).hits).to.have.length(4);
      await t.server.search.flushed();
      const file = (await readFile(path.join(t.dataDir, SEARCH_INDEX_FILE))).toString('latin1');
      expect(file).not.to.contain('kakapo');
      expect(file).to.contain('wombat');
    } finally {
      await t.close();
    }
  });
});

describeWithPostgres('search on PostgreSQL and the embedded store (issue 31)', (db) => {
  it('gives the same hits, excerpts and marks on the same rows', async () => {
    const embedded = await startTestServer();
    const postgres = await startTestServer({ config: { databaseUrl: db().url } });
    try {
      for (const t of [embedded, postgres]) {
        await threadWith(t, { title: 'zoo wombat' }, WORDS);
        await threadWith(t, { title: 'other' }, [
          { user: 'nothing here', agent: 'Wombat-shaped rocks, 3 wombat', command: 'echo WOMBAT_42 wombat' },
          { user: 'Die GRÖSSE der École, naïve; 東京 wombat', agent: 'x²+y² über Ärger', command: 'cat ÉCOLE.md' },
        ]);
      }
      // Words outside ASCII too: both engines cut them the same way (wordsOf), whatever their Unicode tables.
      const queries = [
        'wombat',
        'wombat+config',
        'etc',
        'numbat',
        'rocks+wombat',
        'absent',
        'école',
        'grösse',
        'naïve',
        'naive',
        '東京',
        'über+ärger',
        // `²` is a number to Unicode but not alphanumeric to PostgreSQL's locale: the server cuts both (migration 007).
        'x²',
        'x',
      ];
      for (const q of queries.map(encodeURIComponent)) {
        const [a, b] = [await found(embedded, q), await found(postgres, q)];
        expect(b, q).to.deep.equal(a);
      }
      expect(await found(embedded, 'wombat')).to.have.length(8);
      expect(await found(embedded, encodeURIComponent('école'))).to.have.length(2);
      expect(await found(embedded, encodeURIComponent('東京'))).to.have.length(1);
      expect(await found(embedded, encodeURIComponent('x²'))).to.have.length(1);
    } finally {
      await embedded.close();
      await postgres.close();
    }
  });

  it('rebuilds a database’s index that lost its rows, at start', async () => {
    let t = await startTestServer({ config: { databaseUrl: db().url } });
    await threadWith(t, { title: 'lost' }, [{ user: 'the quagga files', agent: 'ok', command: 'ls' }]);
    await t.close({ keepData: true });
    const { Client } = await import('pg');
    const client = new Client({ connectionString: db().url });
    await client.connect();
    await client.query('TRUNCATE search_docs, search_heads');
    await client.end();
    t = await startTestServer({ dataDir: t.dataDir, config: { databaseUrl: db().url } });
    try {
      await t.server.searchCaughtUp;
      await t.server.search.flushed();
      expect((await search(t, 'q=quagga')).hits.map((hit) => hit.seq)).to.deep.equal([2]);
    } finally {
      await t.close();
    }
  });
});
