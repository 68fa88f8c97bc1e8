/**
 * `npm run bench:search` (issue 31): search across threads over HTTP, and what the index costs the intake.
 *   search: a real server (embedded store, or PostgreSQL with ATS_BENCH_POSTGRES_URL) holding ROWS rows in
 *     THREADS threads (pi-like turns: a prompt, a command, an answer streamed in deltas), asked QUERIES
 *     queries of each kind over HTTP one after another; p50/p99 per kind;
 *   intake: the same rows appended in batches of BATCH through the store with its index and through a plain
 *     store; rows/s of each and their ratio (the index queues, so the appends alone are what intake waits
 *     for), and when the index had caught up.
 * Words are drawn Zipf-like from a vocabulary of VOCABULARY made-up words, so a query hits few or many rows.
 * PostgreSQL at 1,000,000 rows: SEARCH_BENCH_REUSE=1 keeps the threads (named by ROWS and THREADS) in the
 * database, and a later run with the same sizes finds them stored and only searches (no intake measured).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { configWith } from '../src/config/serverConfig';
import { startServer, type RunningServer } from '../src/server/startServer';
import type { EventStore, NewThreadEvent } from '../src/store/eventStore';
import { openNedbEventStore } from '../src/store/nedb/nedbEventStore';
import { openPostgresDatabase } from '../src/store/postgres/openPostgres';
import { createPostgresEventStore } from '../src/store/postgres/postgresEventStore';
import { turnRows } from '../test/server/search/searchRows';
import { registerBenchThread } from './lib/benchThread';

const ROWS = Number(process.env.ROWS ?? 100_000);
const THREADS = Number(process.env.THREADS ?? 100);
const BATCH = Number(process.env.BATCH ?? 200);
const QUERIES = Number(process.env.QUERIES ?? 200);
const VOCABULARY = Number(process.env.VOCABULARY ?? 20_000);
const POSTGRES_URL = process.env.ATS_BENCH_POSTGRES_URL;
const REUSE = POSTGRES_URL !== undefined && process.env.SEARCH_BENCH_REUSE === '1';
const TOKEN = 'bench-token-0123456789abcdef';
const ROWS_PER_TURN = 7;

let seed = 42;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
/** Word `i` of the vocabulary: rank 0 is the most common. */
const wordAt = (i: number) => `w${i.toString(36)}x`;
const zipfWord = () => wordAt(Math.min(VOCABULARY - 1, Math.floor(Math.exp(random() * Math.log(VOCABULARY)) - 1)));
const sentence = (n: number) => Array.from({ length: n }, zipfWord).join(' ');

/** Every batch of the run, the same for every store: threads take turns in round robin. */
function batches(threadIds: readonly string[]): NewThreadEvent[][] {
  const rows: NewThreadEvent[] = [];
  const turns = new Map<string, number>();
  for (let i = 0; rows.length < ROWS; i++) {
    const threadId = threadIds[i % threadIds.length]!;
    const turn = (turns.get(threadId) ?? 0) + 1;
    turns.set(threadId, turn);
    rows.push(...turnRows(threadId, turn, { user: sentence(12), agent: sentence(60), command: `npm run ${zipfWord()} -- ${zipfWord()}` }));
  }
  rows.length = ROWS;
  // One thread per batch, as a daemon's batches are.
  const out: NewThreadEvent[][] = [];
  for (const threadId of threadIds) {
    const own = rows.filter((row) => row.threadId === threadId);
    for (let i = 0; i < own.length; i += BATCH) out.push(own.slice(i, i + BATCH));
  }
  return out;
}

async function appendAll(store: EventStore, all: NewThreadEvent[][]): Promise<number> {
  const started = performance.now();
  // Threads side by side, each thread's batches in order: as many daemons would.
  const byThread = new Map<string, NewThreadEvent[][]>();
  for (const batch of all) byThread.set(batch[0]!.threadId, [...(byThread.get(batch[0]!.threadId) ?? []), batch]);
  await Promise.all(
    [...byThread.values()].map(async (own) => {
      for (const batch of own) await store.append(batch);
    }),
  );
  return performance.now() - started;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;

async function timeQueries(server: RunningServer, label: string, queries: () => string) {
  const times: number[] = [];
  let hits = 0;
  for (let i = 0; i < QUERIES; i++) {
    const started = performance.now();
    const response = await fetch(`${server.url}/api/v1/search?q=${encodeURIComponent(queries())}&limit=20`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    const page = (await response.json()) as { hits: unknown[] };
    times.push(performance.now() - started);
    hits += page.hits.length;
  }
  times.sort((a, b) => a - b);
  console.log(
    `  ${label.padEnd(34)} p50 ${percentile(times, 50).toFixed(1).padStart(6)} ms  p99 ${percentile(times, 99).toFixed(1).padStart(6)} ms  (${(hits / QUERIES).toFixed(1)} hits/page)`,
  );
}

async function main() {
  const engine = POSTGRES_URL ? 'PostgreSQL' : 'embedded';
  console.log(`bench:search on ${engine}: ${ROWS.toLocaleString('en')} rows in ${THREADS} threads, batches of ${BATCH}`);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-search-'));
  const server = await startServer({
    config: configWith({ port: 0, token: TOKEN, dataDir, agentProviders: 'none', ...(POSTGRES_URL ? { databaseUrl: POSTGRES_URL } : {}) }),
    log: (message) => console.error(message),
  });
  try {
    const run = REUSE ? `r${ROWS}t${THREADS}` : Date.now().toString(36);
    const threadIds = Array.from({ length: THREADS }, (_, i) => `thr_bench${run}n${i}`);
    for (const threadId of threadIds) if (!(await server.registry.threads.get(threadId))) await registerBenchThread(server, threadId);
    if (REUSE && (await seededRows(server, threadIds)) === ROWS) {
      await server.searchCaughtUp;
      await server.search.flushed();
      console.log(`reusing the ${ROWS.toLocaleString('en')} rows an earlier run stored (SEARCH_BENCH_REUSE=1): intake not measured`);
    } else await measureIntake(server, threadIds);
    await timeAllQueries(server);
    await timeFreshRows(server, `thr_bench${Date.now().toString(36)}fresh`);
  } finally {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** Rows the threads hold already (a run with SEARCH_BENCH_REUSE=1 before this one). */
async function seededRows(server: RunningServer, threadIds: readonly string[]): Promise<number> {
  let rows = 0;
  for (const threadId of threadIds) rows += await server.store.lastSeq(threadId);
  return rows;
}

async function measureIntake(server: RunningServer, threadIds: readonly string[]) {
  const plainDir = await mkdtemp(path.join(os.tmpdir(), 'bench-search-plain-'));
  try {
    const indexedBatches = batches(threadIds);

    // Intake with the index off: a plain store of the same engine, other thread ids.
    const plain: EventStore = POSTGRES_URL
      ? createPostgresEventStore({
          pool: (await openPostgresDatabase({ url: POSTGRES_URL, max: 10, applicationName: 'bench', log: () => {} })).pool,
          origin: 'bench',
        })
      : await openNedbEventStore({ dataDir: plainDir, log: () => {} });
    const plainBatches = (suffix: string) =>
      indexedBatches.map((batch) => batch.map((row) => ({ ...row, threadId: `${row.threadId}${suffix}` })));
    // A first plain run warms the process up (JIT, file cache); the plain run after the indexed one is the one compared.
    await appendAll(plain, plainBatches('w'));
    const onMs = await appendAll(server.store, indexedBatches);
    const lastAppend = performance.now();
    await server.search.flushed();
    const lagMs = performance.now() - lastAppend;
    const offMs = await appendAll(plain, plainBatches('p'));
    await plain.close();
    const rate = (ms: number) => Math.round(ROWS / (ms / 1000)).toLocaleString('en');
    console.log(`intake: index off ${rate(offMs)} rows/s, index on ${rate(onMs)} rows/s: ratio ${(offMs / onMs).toFixed(2)}×`);
    console.log(`index: every row searchable ${lagMs.toFixed(0)} ms after the last append`);
  } finally {
    await rm(plainDir, { recursive: true, force: true });
  }
}

async function timeAllQueries(server: RunningServer) {
  console.log(`search over HTTP (${QUERIES} queries each, ${ROWS.toLocaleString('en')} rows stored):`);
  await timeQueries(server, 'a common word', () => wordAt(Math.floor(random() * 3)));
  await timeQueries(server, 'a mid-frequency word', () => wordAt(50 + Math.floor(random() * 200)));
  await timeQueries(server, 'a rare word', () => wordAt(5000 + Math.floor(random() * 10_000)));
  await timeQueries(server, 'two words', () => `${wordAt(Math.floor(random() * 30))} ${wordAt(100 + Math.floor(random() * 300))}`);
  await timeQueries(server, 'a word no row holds', () => `nothing${Math.floor(random() * 1e6)}`);
  console.log(`rss after the run: ${Math.round(process.memoryUsage().rss / 2 ** 20)} MB`);
}

/** A row's way to the search on a server not otherwise busy: a turn appended at a time, searched for over HTTP until found. */
async function timeFreshRows(server: RunningServer, threadId: string) {
  await registerBenchThread(server, threadId);
  const times: number[] = [];
  for (let turn = 1; turn <= 20; turn++) {
    const word = `fresh${turn}x${threadId.slice(-12)}`;
    await server.store.append(turnRows(threadId, turn, { user: `look for ${word}`, agent: 'ok', command: 'true' }));
    const started = performance.now();
    for (;;) {
      const response = await fetch(`${server.url}/api/v1/search?q=${word}`, { headers: { authorization: `Bearer ${TOKEN}` } });
      if (((await response.json()) as { hits: unknown[] }).hits.length > 0) break;
    }
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  console.log(
    `a row stored → found over HTTP (20 turns, one at a time): p50 ${percentile(times, 50).toFixed(1)} ms, max ${times.at(-1)!.toFixed(1)} ms`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
