import { expect } from 'chai';
import { Pool, type PoolClient } from 'pg';
import { openPostgresRegistry } from '../../src/registry/postgresRegistry';
import type { ThreadRecord } from '../../src/registry/records';
import { migrate } from '../../src/store/postgres/migrate';
import { describeWithPostgres } from '../helpers/store/postgresDatabase';

const thread: ThreadRecord = {
  id: 'thr_tombstone',
  projectId: 'prj_1',
  environmentId: 'env_1',
  hostId: 'host_1',
  provider: 'pi',
  model: 'fake/model',
  title: 'before',
  createdAt: new Date(0).toISOString(),
} as ThreadRecord;

/**
 * A pool that starts `first` once, just before its next write reaches PostgreSQL (by the pool or by a client
 * of it): the moment another replica's delete can fall between whatever the writer read and its write. The
 * write waits for it, or for a moment if it is blocked (by a row lock the writer holds); `settled` is when
 * it is done.
 */
function poolPausingBeforeWrite(url: string) {
  const pool = new Pool({ connectionString: url });
  pool.on('error', () => {}); // the suite's database is dropped under idle clients at the end
  let first: (() => Promise<void>) | undefined;
  let settled: Promise<void> = Promise.resolve();
  const pausing =
    (query: (...args: unknown[]) => Promise<unknown>) =>
    async (...args: unknown[]) => {
      const next = first;
      if (next && typeof args[0] === 'string' && /^\s*(INSERT|UPDATE)/.test(args[0])) {
        first = undefined;
        settled = next();
        await Promise.race([settled, new Promise((resolve) => setTimeout(resolve, 300))]);
      }
      return query(...args);
    };
  const withPause = (target: { query: unknown }) => {
    target.query = pausing((target.query as (...args: unknown[]) => Promise<unknown>).bind(target));
  };
  withPause(pool as unknown as { query: unknown });
  const connect = pool.connect.bind(pool) as (callback?: unknown) => Promise<PoolClient>;
  // pool.query itself connects with a callback: that form is left as it is (its query is paused above).
  (pool as unknown as { connect: unknown }).connect = async (callback?: unknown) => {
    if (callback) return connect(callback);
    const client = await connect();
    const query = client.query;
    withPause(client as unknown as { query: unknown });
    const release = client.release.bind(client);
    client.release = (error?: Error | boolean) => {
      client.query = query;
      return release(error);
    };
    return client;
  };
  return { pool, beforeNextWrite: (run: () => Promise<void>) => (first = run), settled: () => settled };
}

describeWithPostgres('a thread being deleted stays deleted when another replica writes it at the same moment (issue 28)', (db) => {
  let writer: ReturnType<typeof poolPausingBeforeWrite>;
  let deleter: Pool;

  before(async () => {
    deleter = new Pool({ connectionString: db().url });
    deleter.on('error', () => {});
    await migrate(deleter);
  });
  beforeEach(async () => {
    writer = poolPausingBeforeWrite(db().url);
    await deleter.query('DELETE FROM registry_threads');
  });
  afterEach(() => writer.pool.end());
  after(() => deleter.end());

  it('a rename that read the thread before the delete began does not bring it back (tombstone set by the other replica)', async () => {
    const onWriter = openPostgresRegistry(writer.pool).threads;
    const onDeleter = openPostgresRegistry(deleter).threads;
    await onDeleter.insert(thread);
    const stale = (await onWriter.get(thread.id))!;
    // The other replica's tombstone lands after anything the writer read, just before its write.
    writer.beforeNextWrite(() => onDeleter.markDeleting(thread.id));
    await onWriter.put({ ...stale, title: 'renamed' });
    await writer.settled();

    expect(await onDeleter.get(thread.id)).to.equal(undefined);
    expect((await onDeleter.deleting()).map((record) => record.id)).to.deep.equal([thread.id]);
  });

  it('a write to a live thread is stored, and a tombstone keeps every other field as it was (a title with \\u0000 too)', async () => {
    const threads = openPostgresRegistry(deleter).threads;
    await threads.insert(thread);
    await threads.put({ ...thread, title: 'renamed \u0000' });
    expect((await threads.get(thread.id))?.title).to.equal('renamed \u0000');
    await threads.markDeleting(thread.id);
    await threads.markDeleting(thread.id, { providerThreadId: 'session-1' });
    expect(await threads.deleting()).to.deep.equal([{ ...thread, title: 'renamed \u0000', deleting: true, providerThreadId: 'session-1' }]);
    await threads.put({ ...thread, title: 'back?' });
    expect(await threads.get(thread.id)).to.equal(undefined);
  });
});
