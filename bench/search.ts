/**
 * `npm run bench:search` (issue 31): search across threads over HTTP, and what the index costs the intake.
 *   search: a real server (embedded store, or PostgreSQL with ATS_BENCH_POSTGRES_URL) holding ROWS rows in
 *     THREADS threads (pi-like turns: a prompt, a command, an answer streamed in deltas), asked QUERIES
 *     queries of each kind over HTTP one after another; p50/p99 per kind;
 *   intake: the same rows appended in batches of BATCH through the store with its index and through a plain
 *     store; rows/s of each and their ratio (the index queues, so the appends alone are what intake waits
 *     for), and when the index had caught up.
 * Words are drawn Zipf-like from a vocabulary of VOCABULARY made-up words, so a query hits few or many rows.
 * Embedded store at ROWS=1000000: BENCH_SEARCH_DIR=/some/dir keeps the seeded data dir, so the next run reuses
 * it (the catch-up checks the index, the intake is measured with INTAKE_ROWS more rows in new threads).
 * PostgreSQL at 1,000,000 rows: SEARCH_BENCH_REUSE=1 keeps the threads (named by ROWS and THREADS) in the
 * database, and a later run with the same sizes finds them stored and only searches (no intake measured).
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
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
const KEPT_DIR = POSTGRES_URL ? undefined : process.env.BENCH_SEARCH_DIR;
const REUSE_POSTGRES = POSTGRES_URL !== undefined && process.env.SEARCH_BENCH_REUSE === '1';
const INTAKE_ROWS = Number(process.env.INTAKE_ROWS ?? 100_000);
/** Rows appended one turn at a time to time a row's way to the search, on a quiet server. */
const FRESH_TURNS = 20;
const FRESH_GIVE_UP_MS = 10_000;
const TOKEN = 'bench-token-0123456789abcdef';

let seed = 42;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
/** Word `i` of the vocabulary: rank 0 is the most common. */
const wordAt = (i: number) => `w${i.toString(36)}x`;

/**
 * A thread's batches, made as they are appended (a million rows held at once would swell the RSS the bench
 * reports): pi-like turns with Zipf-drawn words, the same for every store given the same `threadNumber`.
 */
function* threadBatches(threadId: string, threadNumber: number, rows: number): Generator<NewThreadEvent[]> {
  let own = threadNumber + 1;
  const next = () => (own = (own * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const zipfWord = () => wordAt(Math.min(VOCABULARY - 1, Math.floor(Math.exp(next() * Math.log(VOCABULARY)) - 1)));
  const sentence = (n: number) => Array.from({ length: n }, zipfWord).join(' ');
  let pending: NewThreadEvent[] = [];
  for (let turn = 1, made = 0; made < rows; turn++) {
    const made_ = turnRows(threadId, turn, { user: sentence(12), agent: sentence(60), command: `npm run ${zipfWord()} -- ${zipfWord()}` });
    pending.push(...made_.slice(0, rows - made));
    made += made_.length;
    while (pending.length >= BATCH) yield pending.splice(0, BATCH);
  }
  if (pending.length > 0) yield pending;
}

/** Appends `rows` rows spread over `threadIds` (threads side by side, each thread's batches in order: as many daemons would). */
async function appendAll(store: EventStore, threadIds: readonly string[], rows: number): Promise<number> {
  const started = performance.now();
  const perThread = Math.ceil(rows / threadIds.length);
  await Promise.all(
    threadIds.map(async (threadId, i) => {
      for (const batch of threadBatches(threadId, i, Math.min(perThread, rows - i * perThread))) await store.append(batch);
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

const threadIdsOf = (prefix: string) => Array.from({ length: THREADS }, (_, i) => `${prefix}n${i}`);

/** Threads `prefix`0…THREADS-1 registered on the server (those a reused database holds already are kept). */
async function registeredThreads(server: RunningServer, prefix: string): Promise<string[]> {
  const threadIds = threadIdsOf(prefix);
  for (const threadId of threadIds) if (!(await server.registry.threads.get(threadId))) await registerBenchThread(server, threadId);
  return threadIds;
}

/** Rows the threads `prefix`0…THREADS-1 hold already (a run with SEARCH_BENCH_REUSE=1 before this one). */
async function seededRows(server: RunningServer, prefix: string): Promise<number> {
  let rows = 0;
  for (const threadId of threadIdsOf(prefix)) rows += await server.store.lastSeq(threadId);
  return rows;
}

/** Intake of `rows` rows through the server's indexed store and through a plain store of the same engine, in one run. */
async function measureIntake(server: RunningServer, plainDir: string, threadIds: string[], rows: number) {
  const pool = POSTGRES_URL
    ? (await openPostgresDatabase({ url: POSTGRES_URL, max: 10, applicationName: 'bench', log: () => {} })).pool
    : undefined;
  const plain: EventStore = pool
    ? createPostgresEventStore({ pool, origin: 'bench' })
    : await openNedbEventStore({ dataDir: plainDir, log: () => {} });
  const docs = async () => (pool ? Number((await pool.query('SELECT count(*) AS n FROM search_docs')).rows[0].n) : 0);
  const docsBefore = await docs();
  const plainThreads = (suffix: string) => threadIds.map((threadId) => `${threadId}${suffix}`);
  // A first plain run warms the process up (JIT, file cache); the plain run after the indexed one is the one compared.
  await appendAll(plain, plainThreads('w'), rows);
  const onMs = await appendAll(server.store, threadIds, rows);
  const lastAppend = performance.now();
  const docsAtLastAppend = (await docs()) - docsBefore;
  await server.search.flushed();
  const lagMs = performance.now() - lastAppend;
  const docsAfter = (await docs()) - docsBefore;
  const offMs = await appendAll(plain, plainThreads('p'), rows);
  await plain.close();
  const rate = (ms: number) => Math.round(rows / (ms / 1000)).toLocaleString('en');
  console.log(
    `intake of ${rows.toLocaleString('en')} rows: index off ${rate(offMs)} rows/s, index on ${rate(onMs)} rows/s: ratio ${(offMs / onMs).toFixed(2)}×`,
  );
  console.log(`index: every row searchable ${lagMs.toFixed(0)} ms after the last append of that burst`);
  // PostgreSQL: how fast the index wrote beside the appends and alone after them (why the burst lags).
  if (pool && docsAfter > 0) {
    const rowsPerDoc = rows / docsAfter;
    const during = (docsAtLastAppend / (onMs / 1000)) * rowsPerDoc;
    const alone = ((docsAfter - docsAtLastAppend) / (lagMs / 1000)) * rowsPerDoc;
    console.log(
      `index: ${docsAtLastAppend.toLocaleString('en')} of ${docsAfter.toLocaleString('en')} documents written at the last append; ` +
        `${Math.round(during).toLocaleString('en')} stored rows/s beside the appends, ${Math.round(alone).toLocaleString('en')} rows/s alone after them`,
    );
  }
}

/** A turn appended on a quiet server, one at a time: how long until a search over HTTP finds its word. */
async function timeFreshRows(server: RunningServer, threadId: string) {
  const times: number[] = [];
  for (let i = 0; i < FRESH_TURNS; i++) {
    const word = `fresh${Date.now().toString(36)}x${i}`;
    const started = performance.now();
    await server.store.append(turnRows(threadId, 1_000_000 + i, { user: word, agent: 'ok', command: 'true' }));
    for (;;) {
      const response = await fetch(`${server.url}/api/v1/search?q=${word}`, { headers: { authorization: `Bearer ${TOKEN}` } });
      if (((await response.json()) as { hits: unknown[] }).hits.length > 0) break;
      if (performance.now() - started > FRESH_GIVE_UP_MS)
        return console.log(`a row stored → not found over HTTP within ${FRESH_GIVE_UP_MS} ms`);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  console.log(
    `a row stored → found over HTTP (quiet server, ${FRESH_TURNS} rows): p50 ${percentile(times, 50).toFixed(1)} ms, max ${times.at(-1)!.toFixed(1)} ms`,
  );
}

interface Seeded {
  rows: number;
  threadIds: string[];
  vocabulary: number;
}

async function main() {
  const engine = POSTGRES_URL ? 'PostgreSQL' : 'embedded';
  console.log(`bench:search on ${engine}: ${ROWS.toLocaleString('en')} rows in ${THREADS} threads, batches of ${BATCH}`);
  const dataDir = KEPT_DIR ?? (await mkdtemp(path.join(os.tmpdir(), 'bench-search-')));
  if (KEPT_DIR) await mkdir(KEPT_DIR, { recursive: true });
  const marker = path.join(dataDir, 'bench-search-seeded.json');
  const seeded = KEPT_DIR ? ((await readFile(marker, 'utf8').then(JSON.parse, () => undefined)) as Seeded | undefined) : undefined;
  if (seeded && (seeded.rows < ROWS || seeded.vocabulary !== VOCABULARY))
    throw new Error(`${KEPT_DIR} holds ${seeded.rows} rows of a vocabulary of ${seeded.vocabulary}: remove it or ask for that`);
  const plainDir = await mkdtemp(path.join(os.tmpdir(), 'bench-search-plain-'));
  const opening = performance.now();
  const server = await startServer({
    config: configWith({ port: 0, token: TOKEN, dataDir, agentProviders: 'none', ...(POSTGRES_URL ? { databaseUrl: POSTGRES_URL } : {}) }),
    log: (message) => console.error(message),
  });
  try {
    const run = Date.now().toString(36);
    let stored = seeded?.rows ?? 0;
    await server.searchCaughtUp;
    await server.search.flushed();
    const startRss = process.memoryUsage().rss;
    const mb = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MB`;
    if (seeded) {
      console.log(`reused ${KEPT_DIR}: index open and caught up ${((performance.now() - opening) / 1000).toFixed(1)} s after the start`);
      const threadIds = await registeredThreads(server, `thr_bench${run}i`);
      await measureIntake(server, plainDir, threadIds, INTAKE_ROWS);
      stored += INTAKE_ROWS;
      await writeFile(marker, JSON.stringify({ ...seeded, rows: stored } satisfies Seeded));
    } else if (REUSE_POSTGRES && (await seededRows(server, `thr_benchr${ROWS}t${THREADS}`)) === ROWS) {
      console.log(`reusing the ${ROWS.toLocaleString('en')} rows an earlier run stored (SEARCH_BENCH_REUSE=1): intake not measured`);
      stored = ROWS;
    } else {
      const threadIds = await registeredThreads(server, REUSE_POSTGRES ? `thr_benchr${ROWS}t${THREADS}` : `thr_bench${run}`);
      await measureIntake(server, plainDir, threadIds, ROWS);
      stored = ROWS;
      if (KEPT_DIR) await writeFile(marker, JSON.stringify({ rows: ROWS, threadIds, vocabulary: VOCABULARY } satisfies Seeded));
    }

    console.log(`search over HTTP (${QUERIES} queries each, ${stored.toLocaleString('en')} rows stored):`);
    await timeQueries(server, 'a common word', () => wordAt(Math.floor(random() * 3)));
    await timeQueries(server, 'a mid-frequency word', () => wordAt(50 + Math.floor(random() * 200)));
    await timeQueries(server, 'a rare word', () => wordAt(5000 + Math.floor(random() * 10_000)));
    await timeQueries(server, 'two words', () => `${wordAt(Math.floor(random() * 30))} ${wordAt(100 + Math.floor(random() * 300))}`);
    await timeQueries(server, 'a word no row holds', () => `nothing${Math.floor(random() * 1e6)}`);
    const freshThread = `thr_bench${run}f`;
    await registerBenchThread(server, freshThread);
    await timeFreshRows(server, freshThread);
    console.log(
      `rss: ${mb(startRss)} once started, ${mb(process.memoryUsage().rss)} after the run (the server, its search worker and the bench in one process)`,
    );
  } finally {
    await server.close();
    if (!KEPT_DIR) await rm(dataDir, { recursive: true, force: true });
    await rm(plainDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
