/**
 * npm run bench:open-threads — the service's memory after long threads are opened (issue 31: RSS after opening
 * 20 threads of 100,000 rows each ≤ +150 MB over the idle service). The service runs as `npm start` runs it
 * (the built JS in its own process, so its RSS is the service's), with `--expose-gc` and a SIGUSR2 handler
 * preloaded (bench/lib/gcOnSignal.cjs) so each figure is also given after a full collection. Rows are
 * realistic turns (bench/lib/realisticTurns.ts: a streamed answer, a command with output, usage), written
 * beforehand through an in-process server on the same data dir (its search index kept up too).
 *  1. idle: the service started, one small thread opened and closed (the code paths loaded), settled;
 *  2. open: each thread opened as the page opens it, one after another: the tail (`tail=true&limit=800`),
 *     five earlier pages as a user scrolls up (`beforeSeq`), then an SSE stream after the last row, kept open;
 *  3. catch-up: an SSE stream from seq 0 on every thread at once, each read to its last row, then closed.
 * `BENCH_THREADS` (20) and `BENCH_ROWS` (100,000) size it; `BENCH_LOG=1` shows the service's log.
 */
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { from, lastValueFrom } from 'rxjs';
import { configWith } from '../src/config/serverConfig';
import { startServer } from '../src/server/startServer';
import { registerBenchThread } from './lib/benchThread';
import { rssMb } from './lib/processRss';
import { appendRealisticThread } from './lib/realisticTurns';

const THREADS = Number(process.env.BENCH_THREADS ?? 20);
const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const WARM_ROWS = 2_000;
/** As src/web/state/threadFeed.ts reads: the last rows, then this many per step back. */
const PAGE = 800;
const SCROLLS_UP = 5;
const GOAL_MB = 150;
const TOKEN = 'bench-token-0123456789abcdef';
const REPO = path.resolve(__dirname, '..');

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const load = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

interface Service {
  url: string;
  pid: number;
  /** A full collection in the service (SIGUSR2), resolved once it is done. */
  collect(): Promise<void>;
  stop(): Promise<void>;
}

/** The service as `npm start` runs it, with a forced collection on SIGUSR2 (nothing else of it changed). */
async function startService(dataDir: string): Promise<Service> {
  const preload = path.join(REPO, 'bench/lib/gcOnSignal.cjs');
  const child = spawn(
    process.execPath,
    ['--expose-gc', '-r', preload, path.join(REPO, 'dist/node/src/cli/start.js'), '--port', '0', '--data-dir', dataDir],
    { cwd: REPO, env: { ...process.env, ATS_TOKEN: TOKEN }, stdio: ['ignore', 'pipe', process.env.BENCH_LOG ? 'inherit' : 'ignore'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let text = '';
  let collected: (() => void) | undefined;
  child.stdout!.setEncoding('utf8');
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: string) => {
      text += chunk;
      const match = /^listening on (\S+)$/m.exec(text);
      if (match) resolve(match[1]!);
      if (text.includes('bench: gc done\n')) {
        text = text.replaceAll('bench: gc done\n', '');
        collected?.();
      }
      if (process.env.BENCH_LOG) process.stderr.write(chunk);
    });
    void exited.then(() => reject(new Error('the service exited before listening')));
  });
  return {
    url,
    pid: child.pid!,
    collect: () =>
      new Promise<void>((resolve) => {
        collected = resolve;
        child.kill('SIGUSR2');
      }),
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Threads of realistic rows, written through an in-process server on the data dir (registry and search index too). */
async function seed(dataDir: string, threadIds: readonly string[], rows: number): Promise<void> {
  const writer = await startServer({
    config: configWith({ port: 0, token: TOKEN, dataDir, fsync: 'off' }),
    providers: [],
    log: () => {},
  });
  try {
    for (const threadId of threadIds) {
      await registerBenchThread(writer, threadId);
      await appendRealisticThread(threadId, rows, (batch) => lastValueFrom(from(writer.store.append(batch))));
    }
  } finally {
    await writer.close();
  }
}

const agent = new http.Agent({ keepAlive: true });
const headers = { authorization: `Bearer ${TOKEN}` };

async function getJson<T>(url: string): Promise<T> {
  const response = await new Promise<http.IncomingMessage>((resolve, reject) =>
    http.get(url, { headers, agent }, resolve).on('error', reject),
  );
  response.setEncoding('utf8');
  let text = '';
  for await (const chunk of response) text += chunk as string;
  if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${text}`);
  return JSON.parse(text) as T;
}

/** An SSE stream read as fast as it comes; only the ids are looked at. */
interface SseReader {
  /** Resolves once a row with this seq (or a later one) has arrived. */
  reached(seq: number): Promise<void>;
  close(): void;
}

async function openSse(url: string): Promise<SseReader> {
  const request = http.get(url, { headers });
  const [response] = (await once(request, 'response')) as [http.IncomingMessage];
  if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode}`);
  response.setEncoding('utf8');
  let last = 0;
  let carried = '';
  const waiting: Array<{ seq: number; resolve(): void }> = [];
  response.on('data', (chunk: string) => {
    carried += chunk;
    const end = carried.lastIndexOf('\n\n');
    if (end < 0) return;
    const complete = carried.slice(0, end);
    carried = carried.slice(end + 2);
    const ids = complete.match(/^id: \d+$/gm);
    if (ids) last = Number(ids[ids.length - 1]!.slice(4));
    for (let i = waiting.length - 1; i >= 0; i--) if (waiting[i]!.seq <= last) waiting.splice(i, 1)[0]!.resolve();
  });
  response.on('error', () => undefined);
  return {
    reached: (seq) => (seq <= last ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ seq, resolve }))),
    close: () => request.destroy(),
  };
}

/** The service's RSS sampled every 50 ms while `work` runs: the highest seen. */
async function peakRssDuring<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; peakMb: number }> {
  let peakMb = rssMb(pid);
  const sampler = setInterval(() => (peakMb = Math.max(peakMb, rssMb(pid))), 50);
  try {
    const result = await work();
    return { result, peakMb: Math.max(peakMb, rssMb(pid)) };
  } finally {
    clearInterval(sampler);
  }
}

/** Opens a thread as the page does: its tail, `SCROLLS_UP` earlier pages, then its stream after the last row. */
async function openAsThePage(api: string, threadId: string, lastSeq: number): Promise<SseReader> {
  type Row = { seq: number };
  const tail = await getJson<Row[]>(`${api}/threads/${threadId}/events?tail=true&limit=${PAGE}`);
  let first = tail[0]!.seq;
  for (let step = 0; step < SCROLLS_UP && first > 1; step++) {
    first = (await getJson<Row[]>(`${api}/threads/${threadId}/events?beforeSeq=${first}&limit=${PAGE}`))[0]!.seq;
  }
  const last = tail[tail.length - 1]!.seq;
  if (last !== lastSeq) throw new Error(`${threadId}: tail ends at ${last}, not ${lastSeq}`);
  return openSse(`${api}/threads/${threadId}/events/stream?afterSeq=${last}`);
}

/** The service's RSS once it settled `settleMs`, then again after a forced GC. */
async function settledRss(service: Service, settleMs: number): Promise<[number, number]> {
  await pause(settleMs);
  const settled = rssMb(service.pid);
  await service.collect();
  await pause(500);
  return [settled, rssMb(service.pid)];
}

async function main(): Promise<void> {
  execFileSync(process.execPath, [path.join(REPO, 'src/build/ensureBuilt.mjs')], { cwd: REPO, stdio: 'inherit' });
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'ats-bench-open-threads-'));
  const threadIds = Array.from({ length: THREADS }, (_, i) => `thr_open_${i}`);
  let service: Service | undefined;
  try {
    const seedStart = performance.now();
    await seed(dataDir, ['thr_warm'], WARM_ROWS);
    await seed(dataDir, threadIds, ROWS);
    const seedS = (performance.now() - seedStart) / 1000;
    console.log(`seeded ${THREADS} threads × ${ROWS} rows (+1 of ${WARM_ROWS}) in ${seedS.toFixed(0)} s; load average ${load()}`);

    service = await startService(dataDir);
    const { pid } = service;
    const api = `${service.url}/api/v1`;
    // 1. idle: the code paths a thread's opening uses are loaded once, on a small thread.
    (await openAsThePage(api, 'thr_warm', WARM_ROWS)).close();
    const warmCatchUp = await openSse(`${api}/threads/thr_warm/events/stream?afterSeq=0`);
    await warmCatchUp.reached(WARM_ROWS);
    warmCatchUp.close();
    const [idle, idleGc] = await settledRss(service, 3000);

    // 2. open each thread as the page does, one after another, their streams kept open.
    const openMs: number[] = [];
    const { result: streams, peakMb: openPeak } = await peakRssDuring(pid, async () => {
      const open: SseReader[] = [];
      for (const threadId of threadIds) {
        const started = performance.now();
        open.push(await openAsThePage(api, threadId, ROWS));
        openMs.push(performance.now() - started);
      }
      return open;
    });
    const [opened, openedGc] = await settledRss(service, 1000);
    const openLoad = load();

    // 3. every thread's stream from seq 0 at once, each read to its end.
    const catchUpStart = performance.now();
    const { peakMb: catchUpPeak } = await peakRssDuring(pid, async () => {
      const readers = await Promise.all(threadIds.map((threadId) => openSse(`${api}/threads/${threadId}/events/stream?afterSeq=0`)));
      await Promise.all(readers.map((reader) => reader.reached(ROWS)));
      for (const reader of readers) reader.close();
    });
    const catchUpS = (performance.now() - catchUpStart) / 1000;
    const [caughtUp, caughtUpGc] = await settledRss(service, 1000);
    const catchUpLoad = load();
    for (const stream of streams) stream.close();

    const over = (mb: number, base: number) => `${mb.toFixed(0)} MB (+${(mb - base).toFixed(0)})`;
    const verdict = (mb: number, base: number) => (mb - base <= GOAL_MB ? 'met' : 'MISSED');
    console.log(`\nbench:open-threads — ${THREADS} threads × ${ROWS} realistic rows, \`npm start\`'s service (pid ${pid})`);
    console.log(`  idle service RSS                                   ${idle.toFixed(0)} MB; after a forced GC ${idleGc.toFixed(0)} MB`);
    console.log(
      `  opened as the page does (tail ${PAGE}, ${SCROLLS_UP} pages up, SSE kept open), median ${median(openMs).toFixed(0)} ms a thread; load ${openLoad}`,
    );
    console.log(`    RSS then                                         ${over(opened, idle)}  goal ≤ +${GOAL_MB}: ${verdict(opened, idle)}`);
    console.log(
      `    RSS after a forced GC                            ${over(openedGc, idleGc)}  goal ≤ +${GOAL_MB}: ${verdict(openedGc, idleGc)}`,
    );
    console.log(`    highest RSS while opening                        ${over(openPeak, idle)}`);
    console.log(
      `  SSE from seq 0 on all ${THREADS} at once: ${((THREADS * ROWS) / catchUpS / 1000).toFixed(0)}k rows/s over ${catchUpS.toFixed(1)} s; load ${catchUpLoad}`,
    );
    console.log(`    highest RSS while catching up                    ${over(catchUpPeak, idle)}`);
    console.log(`    RSS after (streams closed)                       ${over(caughtUp, idle)}`);
    console.log(`    RSS after a forced GC                            ${over(caughtUpGc, idleGc)}`);
  } finally {
    await service?.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
