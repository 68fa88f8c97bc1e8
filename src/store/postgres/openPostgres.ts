import type { Pool } from 'pg';
import { migrate } from './migrate';
import { openPostgresPool, type PostgresPoolOptions } from './postgresPool';

/** Default size of the lock pool: threads changed at once by one replica before the next change queues. */
export const DEFAULT_LOCK_POOL_MAX = 4;

export interface PostgresDatabaseOptions extends PostgresPoolOptions {
  /** Connections that hold the thread locks (`ATS_DATABASE_LOCK_POOL_MAX`, docs/replicas.md), apart from `max`. */
  lockMax?: number;
}

export interface PostgresDatabase {
  pool: Pool;
  /**
   * Connections that hold a thread's session advisory lock while its change runs (issue 37). A pool of their
   * own: a change holds one while it writes through `pool`, so sharing one pool could leave every connection
   * holding or waiting for a lock and none to write with.
   */
  lockPool: Pool;
  /** Migration versions this start applied (empty when another replica, or an earlier start, did). */
  applied: number[];
  close(): Promise<void>;
}

/** Connects and migrates: what every replica does first with `ATS_DATABASE_URL`. */
export async function openPostgresDatabase(options: PostgresDatabaseOptions): Promise<PostgresDatabase> {
  const pool = openPostgresPool(options);
  const lockPool = openPostgresPool({
    ...options,
    max: options.lockMax ?? DEFAULT_LOCK_POOL_MAX,
    applicationName: `${options.applicationName ?? 'agent-thread-service'} (thread locks)`,
  });
  const close = async () => {
    await Promise.all([pool.end(), lockPool.end()]);
  };
  try {
    const applied = await migrate(pool);
    return { pool, lockPool, applied, close };
  } catch (error) {
    await close();
    throw error;
  }
}
