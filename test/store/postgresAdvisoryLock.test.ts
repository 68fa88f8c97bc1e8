import { expect } from 'chai';
import { Client, type Pool } from 'pg';
import { postgresAdvisoryLock, THREAD_LOCK_CLASS } from '../../src/store/postgres/advisoryLock';
import { openPostgresPool } from '../../src/store/postgres/postgresPool';
import { describeWithPostgres } from '../helpers/store/postgresDatabase';

const settle = (ms = 50) => new Promise((resolve) => setTimeout(resolve, ms));
/** Resolves when `gate()` is called: the holder's work. */
const gated = () => {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  return { gate, open };
};

describeWithPostgres('thread lock across replicas: a session advisory lock per thread (issue 37)', (db) => {
  const pools: Pool[] = [];
  const replica = () => {
    const pool = openPostgresPool({ url: db().url, max: 2 });
    pools.push(pool);
    return postgresAdvisoryLock(pool);
  };
  afterEach(async () => {
    await Promise.all(pools.splice(0).map((pool) => pool.end()));
  });

  it('a change of a thread on replica B waits for the one A holds; another thread’s does not', async () => {
    const [a, b] = [replica(), replica()];
    const log: string[] = [];
    const holder = gated();
    const onA = a.run('thr_one', async () => {
      log.push('A holds');
      await holder.gate;
      log.push('A done');
    });
    await settle();
    const onB = b.run('thr_one', async () => log.push('B holds'));
    expect(await b.run('thr_other', async () => 'other thread ran')).to.equal('other thread ran');
    await settle(200);
    expect(log).to.deep.equal(['A holds']);
    holder.open();
    await Promise.all([onA, onB]);
    expect(log).to.deep.equal(['A holds', 'A done', 'B holds']);
  });

  it('releases the lock when the work fails, and answers the failure', async () => {
    const a = replica();
    const failed = await a.run('thr_one', async () => Promise.reject(new Error('refused'))).catch((error: Error) => error.message);
    expect(failed).to.equal('refused');
    expect(await replica().run('thr_one', async () => 'next ran')).to.equal('next ran');
  });

  it('a replica that dies while holding a thread frees it: its session ends with its connection', async () => {
    const dying = new Client({ connectionString: db().url });
    dying.on('error', () => {});
    await dying.connect();
    await dying.query('SELECT pg_advisory_lock($1, hashtext($2))', [THREAD_LOCK_CLASS, 'thr_one']);
    let ran = false;
    const waiting = replica().run('thr_one', async () => (ran = true));
    await settle(200);
    expect(ran).to.equal(false);
    const { rows } = await dying.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const killer = new Client({ connectionString: db().url });
    await killer.connect();
    await killer.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
    await killer.end();
    await waiting;
    expect(ran).to.equal(true);
    await dying.end().catch(() => undefined);
  });

  it('drops a connection whose unlock failed rather than pool it, and the next change gets a working one', async () => {
    const pool = openPostgresPool({ url: db().url, max: 1 });
    pools.push(pool);
    const lock = postgresAdvisoryLock(pool);
    await lock.run('thr_one', async () => {
      const killer = new Client({ connectionString: db().url });
      await killer.connect();
      // The holder's own connection (the pool's only one) dies mid-change: a network cut, a failover.
      await killer.query(
        `SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND classid = $1 AND granted AND pid <> pg_backend_pid()`,
        [THREAD_LOCK_CLASS],
      );
      await killer.end();
    });
    expect(await lock.run('thr_one', async () => 'next ran')).to.equal('next ran');
  });
});
