import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/** The machines' PostgreSQL (README "Several servers"); another can be named for a run. */
export const POSTGRES_ADMIN_URL = process.env.ATS_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REACH_TIMEOUT_MS = 2_000;

export interface TestDatabase {
  /** URL of the database made for this suite; dropped in `after`. */
  url: string;
  name: string;
}

let reachable: Promise<string | undefined> | undefined;
let saidSo = false;

/** Undefined when reachable, else why not. Asked once per test process. */
function unreachableReason(): Promise<string | undefined> {
  reachable ??= (async () => {
    const client = new Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: REACH_TIMEOUT_MS });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.query('SELECT 1');
      return undefined;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    } finally {
      await client.end().catch(() => {});
    }
  })();
  return reachable;
}

async function admin<T>(run: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: POSTGRES_ADMIN_URL });
  client.on('error', () => {});
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `ats_test_${randomBytes(6).toString('hex')}`;
  await admin((client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), name };
}

export async function dropTestDatabase(db: TestDatabase): Promise<void> {
  await admin((client) => client.query(`DROP DATABASE IF EXISTS ${db.name} WITH (FORCE)`));
}

/**
 * A suite that needs PostgreSQL: it gets a fresh database (dropped after). Where none is reachable the suite
 * is skipped with one line saying so, unless `ATS_REQUIRE_POSTGRES=1` (CI), which makes that a failure.
 */
export function describeWithPostgres(title: string, body: (db: () => TestDatabase) => void): void {
  describe(title, function () {
    let db: TestDatabase | undefined;
    before(async function () {
      const reason = await unreachableReason();
      if (reason !== undefined) {
        if (process.env.ATS_REQUIRE_POSTGRES === '1')
          throw new Error(`PostgreSQL is required (ATS_REQUIRE_POSTGRES=1) but ${POSTGRES_ADMIN_URL} is not reachable: ${reason}`);
        if (!saidSo) console.log(`  (PostgreSQL at ${POSTGRES_ADMIN_URL} is not reachable, so its tests are skipped: ${reason})`);
        saidSo = true;
        this.skip();
      }
      db = await createTestDatabase();
    });
    after(async () => {
      if (db) await dropTestDatabase(db);
    });
    body(() => {
      if (!db) throw new Error('no test database');
      return db;
    });
  });
}
