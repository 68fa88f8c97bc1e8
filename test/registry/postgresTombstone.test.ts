import { expect } from 'chai';
import { Pool } from 'pg';
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
 * A pool that runs `first` once, just before its next write reaches PostgreSQL: the moment another replica's
 * delete can fall between whatever the writer read and its write.
 */
function poolPausingBeforeWrite(url: string) {
  const pool = new Pool({ connectionString: url });
  pool.on('error', () => {}); // the suite's database is dropped under idle clients at the end
  let first: (() => Promise<void>) | undefined;
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  (pool as unknown as { query: unknown }).query = async (...args: unknown[]) => {
    const next = first;
    if (next && typeof args[0] === 'string' && /^\s*(INSERT|UPDATE)/.test(args[0])) {
      first = undefined;
      await next();
    }
    return query(...args);
  };
  return { pool, beforeNextWrite: (run: () => Promise<void>) => (first = run) };
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

    expect(await onDeleter.get(thread.id)).to.equal(undefined);
    expect((await onDeleter.deleting()).map((record) => record.id)).to.deep.equal([thread.id]);
  });

  it('a write to a live thread is stored, and a tombstone keeps every other field as it was', async () => {
    const threads = openPostgresRegistry(deleter).threads;
    await threads.insert(thread);
    await threads.put({ ...thread, title: 'renamed' });
    expect((await threads.get(thread.id))?.title).to.equal('renamed');
    await threads.markDeleting(thread.id);
    expect(await threads.deleting()).to.deep.equal([{ ...thread, title: 'renamed', deleting: true }]);
  });
});
