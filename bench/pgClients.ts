/**
 * `npm run bench:pg-clients`: the two PostgreSQL clients for Node (`pg`, `postgres`) doing what the event
 * store does (one append statement per batch, a page of 100 rows by cursor), same database, same run,
 * alternating rounds. The store uses the faster on these; docs/replicas.md has the numbers.
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from 'pg';
import postgres from 'postgres';
import { withScratchDatabase } from './lib/scratchDatabase';

const ROUNDS = 4;
const APPENDS = 400;
const BATCH = 20;
const PAGES = 400;

function batchJson(threadId: string): [string, string] {
  const rows = Array.from({ length: BATCH }, (_, k) => ({
    t: threadId,
    k: k + 1,
    i: randomUUID(),
    ty: 'item/agentMessage/delta',
    tu: 'turn-1',
    sc: { kind: 'turn', turnId: 'turn-1' },
    d: { providerThreadId: threadId, itemId: 'item-1', delta: ' some words of a reply' },
  }));
  return [JSON.stringify(rows), JSON.stringify([{ t: threadId, n: BATCH }])];
}

async function main(): Promise<void> {
  await withScratchDatabase(async (url) => {
    const setup = new Client({ connectionString: url });
    await setup.connect();
    await setup.query(await readFile(path.join(__dirname, '../src/store/postgres/migrations/001_thread_events.sql'), 'utf8'));
    await setup.end();
    const pgClient = new Client({ connectionString: url });
    pgClient.on('error', () => {});
    await pgClient.connect();
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    const sides = {
      pg: {
        append: (rows: string, heads: string) => pgClient.query('SELECT * FROM ats_append_events($1, $2, $3)', [rows, heads, 'bench']),
        page: (threadId: string, after: number) =>
          pgClient.query('SELECT * FROM thread_events WHERE thread_id = $1 AND seq > $2 ORDER BY seq LIMIT 100', [threadId, after]),
      },
      postgres: {
        append: (rows: string, heads: string) =>
          sql`SELECT * FROM ats_append_events(${rows}::text::json, ${heads}::text::json, ${'bench'})`,
        page: (threadId: string, after: number) =>
          sql`SELECT * FROM thread_events WHERE thread_id = ${threadId} AND seq > ${after} ORDER BY seq LIMIT 100`,
      },
    };
    const results: Record<string, { append: number[]; page: number[] }> = {
      pg: { append: [], page: [] },
      postgres: { append: [], page: [] },
    };
    for (let round = 0; round < ROUNDS; round++) {
      for (const name of round % 2 === 0 ? ['pg', 'postgres'] : ['postgres', 'pg']) {
        const side = sides[name as keyof typeof sides];
        const threadId = `thr_${name}_${round}`;
        const batches = Array.from({ length: APPENDS }, () => batchJson(threadId));
        let start = process.hrtime.bigint();
        for (const [rows, heads] of batches) await side.append(rows, heads);
        results[name]!.append.push(Number(process.hrtime.bigint() - start) / 1e6 / APPENDS);
        start = process.hrtime.bigint();
        for (let i = 0; i < PAGES; i++) await side.page(threadId, (i * 37) % (APPENDS * BATCH - 100));
        results[name]!.page.push(Number(process.hrtime.bigint() - start) / 1e6 / PAGES);
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    for (const [name, r] of Object.entries(results)) {
      console.log(
        `${name.padEnd(9)} append of ${BATCH} rows: median ${median(r.append).toFixed(3)} ms; page of 100 rows: median ${median(r.page).toFixed(3)} ms`,
      );
    }
    await pgClient.end();
    await sql.end();
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
