import type { Pool } from 'pg';
import { migrate } from './migrate';
import { openPostgresPool, type PostgresPoolOptions } from './postgresPool';

export interface PostgresDatabase {
  pool: Pool;
  /** Migration versions this start applied (empty when another replica, or an earlier start, did). */
  applied: number[];
  close(): Promise<void>;
}

/** Connects and migrates: what every replica does first with `ATS_DATABASE_URL`. */
export async function openPostgresDatabase(options: PostgresPoolOptions): Promise<PostgresDatabase> {
  const pool = openPostgresPool(options);
  try {
    const applied = await migrate(pool);
    return { pool, applied, close: () => pool.end() };
  } catch (error) {
    await pool.end();
    throw error;
  }
}
