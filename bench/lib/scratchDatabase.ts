import { Client } from 'pg';

/** The server a bench makes its database on; `ATS_BENCH_POSTGRES_URL` points it elsewhere. */
const ADMIN_URL = process.env.ATS_BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * Runs `use` on a fresh database of its own, dropped afterwards whatever happens, so a bench never measures or
 * leaves behind another run's rows.
 */
export async function withScratchDatabase<T>(use: (url: string) => Promise<T>): Promise<T> {
  const name = `ats_bench_${process.pid}`;
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(ADMIN_URL);
    url.pathname = `/${name}`;
    return await use(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}
