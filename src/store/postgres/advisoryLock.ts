import type { Pool, PoolClient } from 'pg';

/**
 * First key of the session advisory locks of one thing per text key (here: a thread, issue 37). The two-key
 * space is apart from the one-key space of `MIGRATION_LOCK_KEY`; this number spells "ATS" and a 7.
 */
export const THREAD_LOCK_CLASS = 0x415453_07;

/** Same shape as `ThreadLock` (src/registry/threadLock.ts), which the store may not import. */
export interface AdvisoryLock {
  run<T>(key: string, work: () => Promise<T>): Promise<T>;
}

/**
 * Work on one key at a time across every process on the database: `pg_advisory_lock(class, hashtext(key))`,
 * held by the session of a connection of `pool` for as long as `work` runs and released in `finally`. A
 * session lock, not a transaction's: the work writes through other connections (the registry's, and the
 * event store's, possibly on another replica), so no one transaction can cover it. A process that dies drops
 * its connection and with it the lock. Two keys of one hash share a lock (they only wait for each other).
 *
 * `pool` should hold these connections only: a connection waits here as long as the holder works, and a pool
 * the work itself draws from could run dry with every connection waiting.
 */
export function postgresAdvisoryLock(pool: Pool, lockClass = THREAD_LOCK_CLASS): AdvisoryLock {
  return {
    async run(key, work) {
      const client = await pool.connect();
      // Held for as long as the work runs: a connection cut meanwhile (a failover, the server's restart) is
      // an error on this client, which the pool listens for only while the client is idle in it.
      let cut = false;
      const onError = () => (cut = true);
      client.on('error', onError);
      const release = (healthy: boolean) => {
        client.off('error', onError);
        // A connection that may still hold the lock is closed, not pooled, so its session ends.
        client.release(healthy && !cut ? undefined : true);
      };
      try {
        await client.query('SELECT pg_advisory_lock($1, hashtext($2))', [lockClass, key]);
      } catch (error) {
        release(false);
        throw error;
      }
      try {
        return await work();
      } finally {
        release(await unlocked(client, lockClass, key));
      }
    },
  };
}

async function unlocked(client: PoolClient, lockClass: number, key: string): Promise<boolean> {
  try {
    const { rows } = await client.query<{ released: boolean }>('SELECT pg_advisory_unlock($1, hashtext($2)) AS released', [lockClass, key]);
    return rows[0]?.released === true;
  } catch {
    return false;
  }
}
