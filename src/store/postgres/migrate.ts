import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Pool } from 'pg';

/** The versioned SQL files: `NNN_name.sql`, applied in number order, each once. */
export const MIGRATIONS_DIR = path.join(__dirname, 'migrations');

/**
 * Key of the advisory lock that replicas starting together take around their migrations (any 64-bit number
 * no other application on the database uses; this one spells "ATS" and a version of the scheme).
 */
export const MIGRATION_LOCK_KEY = 0x415453_0001;

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export async function readMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const files = (await readdir(dir)).filter((file) => /^\d+_[\w-]+\.sql$/.test(file));
  const migrations = await Promise.all(
    files.map(async (file) => ({
      version: Number(file.split('_')[0]),
      name: file.replace(/\.sql$/, ''),
      sql: await readFile(path.join(dir, file), 'utf8'),
    })),
  );
  return migrations.sort((a, b) => a.version - b.version);
}

/**
 * Brings the schema up to date: under a session advisory lock (so replicas starting at once wait for the
 * first instead of racing it), each migration not yet in `ats_schema_migrations` runs in its own
 * transaction together with its bookkeeping row, so a crash leaves it either wholly applied or not at all.
 * Returns the versions applied now.
 */
export async function migrate(pool: Pool, migrations?: readonly Migration[]): Promise<number[]> {
  const all = migrations ?? (await readMigrations());
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await client.query(`CREATE TABLE IF NOT EXISTS ats_schema_migrations (
        version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
      const { rows } = await client.query<{ version: number }>('SELECT version FROM ats_schema_migrations');
      const applied = new Set(rows.map((row) => row.version));
      const newer = all.filter((migration) => !applied.has(migration.version));
      for (const migration of newer) {
        await client.query('BEGIN');
        try {
          await client.query(migration.sql);
          await client.query('INSERT INTO ats_schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw new Error(`migration ${migration.name} failed: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      return newer.map((migration) => migration.version);
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}
