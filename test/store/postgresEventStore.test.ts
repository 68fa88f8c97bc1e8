import { expect } from 'chai';
import { Client } from 'pg';
import { HeadMoved } from '../../src/store/conditionalAppend';
import { migrate, readMigrations } from '../../src/store/postgres/migrate';
import { openPostgresDatabase, type PostgresDatabase } from '../../src/store/postgres/openPostgres';
import { openPostgresPool } from '../../src/store/postgres/postgresPool';
import { createPostgresEventStore, EVENTS_CHANNEL, type PostgresEventStore } from '../../src/store/postgres/postgresEventStore';
import { createTestDatabase, describeWithPostgres, dropTestDatabase } from '../helpers/store/postgresDatabase';
import { delta } from './eventStoreContract';

describeWithPostgres('PostgreSQL event store: several writers, one database', (db) => {
  const opened: PostgresDatabase[] = [];
  const stores: PostgresEventStore[] = [];
  const replica = async (origin: string) => {
    const database = await openPostgresDatabase({ url: db().url, max: 4 });
    opened.push(database);
    const store = createPostgresEventStore({ pool: database.pool, origin, ownsPool: false });
    stores.push(store);
    return store;
  };
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
    await Promise.all(opened.splice(0).map((database) => database.close()));
  });

  it('applies each migration once when replicas start together, under the advisory lock', async () => {
    const fresh = await createTestDatabase();
    const pools = [1, 2, 3].map(() => openPostgresPool({ url: fresh.url, max: 2 }));
    try {
      const applied = await Promise.all(pools.map((pool) => migrate(pool)));
      const versions = (await readMigrations()).map((migration) => migration.version);
      expect(applied.flat().sort((x, y) => x - y)).to.deep.equal(versions);
      const { rows } = await pools[0]!.query<{ version: number }>('SELECT version FROM ats_schema_migrations ORDER BY version');
      expect(rows.map((row) => row.version)).to.deep.equal(versions);
      expect(await migrate(pools[0]!)).to.deep.equal([]);
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
      await dropTestDatabase(fresh);
    }
  });

  it('interleaves two replicas writing one thread at once: gapless, every row once, each append contiguous', async () => {
    const [a, b] = [await replica('A'), await replica('B')];
    const threadId = `thr_shared_${Date.now()}`;
    const appends = Array.from({ length: 30 }, (_, i) =>
      (i % 2 === 0 ? a : b).append([delta(threadId, `${i}.1`), delta(threadId, `${i}.2`), delta(threadId, `${i}.3`)]),
    );
    const results = await Promise.all(appends);
    for (const rows of results) expect(rows.map((row) => row.seq - rows[0]!.seq)).to.deep.equal([0, 1, 2]);
    const listed = await a.list(threadId);
    expect(listed.map((row) => row.seq)).to.deep.equal(Array.from({ length: 90 }, (_, i) => i + 1));
    expect(new Set(listed.map((row) => (row.data as { delta: string }).delta)).size).to.equal(90);
    expect(await b.lastSeq(threadId)).to.equal(90);
  });

  it('appendAt stores a batch only where each thread head is where it expects, all or nothing', async () => {
    const store = await replica('A');
    const [x, y] = [`thr_x_${Date.now()}`, `thr_y_${Date.now()}`];
    const first = await store.appendAt([delta(x, 'x1'), delta(y, 'y1')], { [x]: 1, [y]: 1 });
    expect(first.map((row) => row.seq)).to.deep.equal([1, 1]);
    let refusal: unknown;
    await store.appendAt([delta(x, 'x2'), delta(y, 'again')], { [x]: 2, [y]: 1 }).catch((error: unknown) => (refusal = error));
    expect(refusal).to.be.instanceOf(HeadMoved);
    expect(refusal).to.include({ threadId: y, expectedFirstSeq: 1, storedLastSeq: 1 });
    expect([await store.lastSeq(x), await store.lastSeq(y)]).to.deep.equal([1, 1]);
    expect((await store.list(x)).map((row) => (row.data as { delta: string }).delta)).to.deep.equal(['x1']);
  });

  it('announces each appended thread on commit, naming the writer and the last seq', async () => {
    const store = await replica('replica-A');
    const listener = new Client({ connectionString: db().url });
    await listener.connect();
    try {
      const heard: string[] = [];
      listener.on('notification', (message) => heard.push(message.payload ?? ''));
      await listener.query(`LISTEN ${EVENTS_CHANNEL}`);
      const threadId = `thr_told_${Date.now()}`;
      await store.append([delta(threadId, '1'), delta(threadId, '2')]);
      const deadline = Date.now() + 5_000;
      while (heard.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(heard).to.deep.equal([`replica-A 1 2 ${threadId}`]);
    } finally {
      await listener.end();
    }
  });

  it('refuses appends once closed', async () => {
    const store = await replica('A');
    await store.close();
    let failed = false;
    await store.append([delta('thr_late', 'late')]).catch(() => (failed = true));
    expect(failed).to.equal(true);
  });
});
