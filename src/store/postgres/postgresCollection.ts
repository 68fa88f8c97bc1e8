import type { Pool, PoolClient } from 'pg';

/** The registry tables of migrations 002, 004 and 008. */
export const REGISTRY_TABLES = [
  'registry_projects',
  'registry_hosts',
  'registry_environments',
  'registry_threads',
  // Migration 004 (issue 30): enrollment codes and host credentials, by their hashes.
  'registry_enrollments',
  'registry_host_credentials',
  // Migration 008 (issue 38): review comments, found by their thread.
  'registry_review_comments',
] as const;
export type RegistryTable = (typeof REGISTRY_TABLES)[number];

/** Same shape as the registry's `Collection<T>` (src/registry/collection.ts), which the store may not import. */
export interface PostgresCollection<T extends { id: string }> {
  insert(record: T): Promise<T>;
  get(id: string): Promise<T | undefined>;
  find(query?: Partial<T>): Promise<T[]>;
  put(record: T): Promise<T>;
  update(record: T): Promise<boolean>;
  remove(id: string): Promise<void>;
  take(id: string): Promise<T | undefined>;
  close(): Promise<void>;
  /** Replaces the record in one statement unless its boolean `flag` is set (by any replica): true if replaced. */
  putUnlessFlagged(record: T, flag: string): Promise<boolean>;
  /** Sets these top-level fields of the stored record in one statement, keeping the rest of it as stored. */
  mergeFields(id: string, fields: Partial<T>): Promise<void>;
}

/** Record fields copied into their own columns, so the server's lookups run in SQL without parsing JSON. */
const LOOKUP_COLUMNS: Readonly<Record<string, string>> = { hostId: 'host_id', projectId: 'project_id', threadId: 'thread_id' };
const COLUMNS = 'id, record, created_at, host_id, project_id, thread_id';
const SET_COLUMNS = 'record = $2, created_at = $3, host_id = $4, project_id = $5, thread_id = $6';

/**
 * One registry table: records by id, listed by `createdAt` then id (the nedb collections' order). A query
 * matches top-level fields by equality: `hostId` and `projectId` in SQL (indexed for threads), any other
 * field on the rows that come back.
 */
export function openPostgresCollection<T extends { id: string }>(pool: Pool, table: RegistryTable): PostgresCollection<T> {
  const paramsOf = (record: T) => {
    const fields = record as Record<string, unknown>;
    const text = (value: unknown) => (typeof value === 'string' ? value : null);
    return [record.id, JSON.stringify(record), text(fields.createdAt), text(fields.hostId), text(fields.projectId), text(fields.threadId)];
  };
  const underRowLock = async <R>(id: string, work: (stored: T | undefined, client: PoolClient) => Promise<R>): Promise<R> => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<{ record: T }>(`SELECT record FROM ${table} WHERE id = $1 FOR UPDATE`, [id]);
      const result = await work(rows[0]?.record, client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  };
  return {
    async insert(record) {
      await pool.query(`INSERT INTO ${table} (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)`, paramsOf(record));
      return record;
    },
    async get(id) {
      const { rows } = await pool.query<{ record: T }>(`SELECT record FROM ${table} WHERE id = $1`, [id]);
      return rows[0]?.record;
    },
    async find(query = {}) {
      const entries = Object.entries(query).filter(([, value]) => value !== undefined);
      const inSql = entries.filter(([key, value]) => LOOKUP_COLUMNS[key] !== undefined && typeof value === 'string');
      const where = inSql.map(([key], i) => `${LOOKUP_COLUMNS[key]} = $${i + 1}`);
      const { rows } = await pool.query<{ record: T }>(
        `SELECT record FROM ${table}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at NULLS FIRST, id`,
        inSql.map(([, value]) => value),
      );
      const records = rows.map((row) => row.record);
      if (inSql.length === entries.length) return records;
      return records.filter((record) =>
        entries.every(([key, value]) => JSON.stringify((record as Record<string, unknown>)[key]) === JSON.stringify(value)),
      );
    },
    async put(record) {
      await pool.query(
        `INSERT INTO ${table} (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (id) DO UPDATE SET record = EXCLUDED.record, created_at = EXCLUDED.created_at, host_id = EXCLUDED.host_id,
           project_id = EXCLUDED.project_id, thread_id = EXCLUDED.thread_id`,
        paramsOf(record),
      );
      return record;
    },
    async update(record) {
      const { rowCount } = await pool.query(`UPDATE ${table} SET ${SET_COLUMNS} WHERE id = $1`, paramsOf(record));
      return (rowCount ?? 0) > 0;
    },
    // Both read the stored record under its row lock and write it in the same transaction, so a write of one
    // replica never lands between another's read and write. (Not in SQL's JSON operators: they refuse a record
    // holding a \u0000, which a title may.)
    putUnlessFlagged: (record, flag) =>
      underRowLock(record.id, async (stored, client) => {
        if (!stored || (stored as Record<string, unknown>)[flag] === true) return false;
        await client.query(`UPDATE ${table} SET ${SET_COLUMNS} WHERE id = $1`, paramsOf(record));
        return true;
      }),
    mergeFields: (id, fields) =>
      underRowLock(id, async (stored, client) => {
        if (stored) await client.query(`UPDATE ${table} SET record = $2 WHERE id = $1`, [id, JSON.stringify({ ...stored, ...fields })]);
      }),
    async remove(id) {
      await pool.query(`DELETE FROM ${table} WHERE id = $1`, [id]);
    },
    // One statement: of two replicas taking one id at once, only one gets the row back.
    async take(id) {
      const { rows } = await pool.query<{ record: T }>(`DELETE FROM ${table} WHERE id = $1 RETURNING record`, [id]);
      return rows[0]?.record;
    },
    // The pool belongs to whoever opened the database; every write is committed once its promise resolves.
    async close() {},
  };
}
