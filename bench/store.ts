/**
 * npm run bench:store [-- --rows 200000 --threads 1000 --dir /big/disk/folder --keep --only start,reads,appends,lone,paced]
 *
 * Builds a data dir of `--rows` rows (default 10 million) over `--threads` threads (default 10,000), ~1 KiB
 * each, straight through the event store port, then prints:
 * - start: a real server process (`src/cli/start.ts`) on that data dir, spawn → `listening`, against the same
 *   server on an empty data dir in the same run; idle RSS of both after start;
 * - reads: first page (100 rows) of a thread not touched since start (cold) and the same page again (hot), p50/p99;
 * - append throughput of the store (default fsync) against raw nedb batched inserts of the same documents, in
 *   alternating rounds of the same run (ratio of medians, spread);
 * - fsync cost per mode: throughput and one-at-a-time append latency for `always`, `batch`, `off`;
 * - append→ack latency p50/p99 at 5,000 appends/s with the default fsync.
 */
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import Datastore from 'nedb-promises';
import type { NewThreadEvent, StoredThreadEvent } from '../src/store/eventStore';
import type { FsyncMode } from '../src/store/fsyncMode';
import { openNedbEventStore, type NedbEventStore } from '../src/store/nedb/nedbEventStore';
import { toSegmentDocument } from '../src/store/nedb/segments/segmentDocument';

const REPO = path.resolve(__dirname, '..');
const ROW_TEXT_BYTES = 900; // + the row's fields ≈ 1 KiB a line
const BUILD_BATCH_ROWS = 100;
const BUILD_IN_FLIGHT = 16;
const COMPARE_ROWS = 100_000;
const COMPARE_ROUNDS = 5;
const READ_SAMPLES = 200;
const START_ROUNDS = 5;
const PAGE_ROWS = 100;
const PACED_RATE = 5_000;
const PACED_SECONDS = 10;
const PACE_TICK_MS = 10;

function flag(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}
const ROWS = Number(flag('rows') ?? 10_000_000);
const THREADS = Math.min(Number(flag('threads') ?? 10_000), ROWS);
const KEEP = process.argv.includes('--keep');
/** `--only reads,paced`: just those parts (on a kept data dir: `--dir D --keep`). */
const ONLY = flag('only')?.split(',');
const part = (name: string) => !ONLY || ONLY.includes(name);

const filler = 'abcdefghijklmnopqrstuvwxyz0123456789 '.repeat(Math.ceil(ROW_TEXT_BYTES / 37)).slice(0, ROW_TEXT_BYTES);
const eventOf = (threadId: string, n: number): NewThreadEvent =>
  ({
    threadId,
    type: 'item/agentMessage/delta',
    turnId: 'turn-1',
    scope: { kind: 'turn', turnId: 'turn-1' },
    data: { providerThreadId: threadId, itemId: 'item-1', delta: `${n} ${filler}` },
  }) as NewThreadEvent;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
const median = (values: number[]) => percentile(values, 50);
const fmt = (ms: number) => `${ms < 10 ? ms.toFixed(2) : ms.toFixed(1)} ms`;
const spread = (values: number[]) => `${Math.round(Math.min(...values))}–${Math.round(Math.max(...values))}`;
const rssMb = () => Math.round(process.memoryUsage().rss / 1024 / 1024);

/** Appends `rows` rows over `threads` threads, `batch` rows of one thread per append, `inFlight` appends at once. */
async function appendRows(
  store: NedbEventStore,
  rows: number,
  threads: number,
  prefix: string,
  batch: number,
  inFlight: number,
  progress?: (done: number) => void,
) {
  let next = 0;
  const lane = async () => {
    for (;;) {
      const start = next;
      if (start >= rows) return;
      next += batch;
      const thread = Math.floor(start / batch) % threads;
      const count = Math.min(batch, rows - start);
      await store.append(Array.from({ length: count }, (_, i) => eventOf(`${prefix}${thread}`, start + i)));
      progress?.(start + count);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
}

async function build(dataDir: string) {
  const store = await openNedbEventStore({ dataDir });
  const started = performance.now();
  let reported = 0;
  await appendRows(store, ROWS, THREADS, 'thr_', BUILD_BATCH_ROWS, BUILD_IN_FLIGHT, (done) => {
    if (done - reported >= 500_000) {
      reported = done;
      const seconds = (performance.now() - started) / 1000;
      console.error(`  built ${done} rows in ${seconds.toFixed(0)} s (${Math.round(done / seconds)} rows/s, RSS ${rssMb()} MB)`);
    }
  });
  const seconds = (performance.now() - started) / 1000;
  await store.close();
  console.log(
    `build: ${ROWS} rows over ${THREADS} threads through the store port in ${seconds.toFixed(1)} s (${Math.round(ROWS / seconds)} rows/s, default fsync)`,
  );
}

/** What `npm start` runs once its `prestart` has built it (src/build/ensureBuilt.mjs). */
const SERVER_ENTRY = path.join(REPO, 'dist', 'node', 'src', 'cli', 'start.js');

/** A real server on the data dir, compiled as `npm start` runs it: ms from spawn to `listening`, and its RSS once idle. */
async function serverStart(dataDir: string): Promise<{ ms: number; rssMb: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [SERVER_ENTRY, '--data-dir', dataDir, '--port', '0', '--agent-providers', 'none'], {
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const ms = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.includes('listening on')) resolve(performance.now() - started);
    });
    child.once('exit', (code) => reject(new Error(`server exited (${code}) before listening: ${stderr}`)));
  });
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  const status = await fs.readFile(`/proc/${child.pid}/status`, 'utf8');
  const rss = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  return { ms, rssMb: Math.round(rss) };
}

async function reads(dataDir: string) {
  const opens: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    const store = await openNedbEventStore({ dataDir });
    opens.push(performance.now() - started);
    await store.close();
  }
  console.log(
    `store open (lock, index of ${THREADS} threads, no history read; in process): p50 ${fmt(median(opens))} (${opens.map((ms) => ms.toFixed(1)).join(', ')} ms)`,
  );
  const store = await openNedbEventStore({ dataDir });
  const timings = { firstCold: [] as number[], firstHot: [] as number[], lastCold: [] as number[], lastHot: [] as number[] };
  const timed = async (into: number[], read: () => Promise<unknown[]>) => {
    const started = performance.now();
    const page = await read();
    into.push(performance.now() - started);
    if (page.length === 0) throw new Error('an empty page');
  };
  const samples = Math.min(READ_SAMPLES, THREADS);
  const picked = Array.from({ length: samples }, (_, i) => `thr_${Math.floor((i * THREADS) / samples)}`);
  for (const threadId of picked) {
    const firstPage = () => store.list(threadId, { afterSeq: 0, limit: PAGE_ROWS });
    await timed(timings.firstCold, firstPage);
    await timed(timings.firstHot, firstPage);
  }
  // The last page of a thread (what the page opens with): read from its file after a scan for its line marks.
  for (const threadId of picked.slice(0, samples / 2)) {
    const lastPage = async () =>
      store.list(threadId, { afterSeq: Math.max(0, (await store.lastSeq(threadId)) - PAGE_ROWS), limit: PAGE_ROWS });
    await timed(timings.lastCold, lastPage);
    await timed(timings.lastHot, lastPage);
  }
  const { lineMarks } = store.stats();
  await store.close();
  const line = (values: number[]) => `p50 ${fmt(median(values))}, p99 ${fmt(percentile(values, 99))}`;
  console.log(`reads of ${PAGE_ROWS}-row pages, threads of ~${Math.round(ROWS / THREADS)} rows not read since start:`);
  console.log(
    `  first page, cold (from the start of the thread's file, thread not opened): ${line(timings.firstCold)} (${samples} threads)`,
  );
  console.log(`  first page again, hot: ${line(timings.firstHot)}`);
  console.log(`  last page, cold (the file scanned once for its line marks): ${line(timings.lastCold)} (${samples / 2} threads)`);
  console.log(`  last page again, hot (from a line mark): ${line(timings.lastHot)}; line marks held after: ${lineMarks}`);
}

/** The documents the store writes for a workload, so raw nedb inserts exactly the same ones. */
function documentsOf(prefix: string, rows: number, threads: number, batch: number) {
  const batches: Array<ReturnType<typeof toSegmentDocument>[]> = [];
  const seqs = new Map<string, number>();
  for (let start = 0; start < rows; start += batch) {
    const thread = Math.floor(start / batch) % threads;
    const threadId = `${prefix}${thread}`;
    batches.push(
      Array.from({ length: Math.min(batch, rows - start) }, (_, i) => {
        const seq = (seqs.get(threadId) ?? 0) + 1;
        seqs.set(threadId, seq);
        const row: StoredThreadEvent = {
          ...eventOf(threadId, start + i),
          id: `${threadId}-${seq}`,
          seq,
          createdAt: new Date().toISOString(),
        } as StoredThreadEvent;
        return toSegmentDocument(row);
      }),
    );
  }
  return batches;
}

/** Store append throughput against raw nedb (one datastore per thread, batched inserts) in alternating rounds. */
/**
 * Writes back what the previous side left dirty (untimed), so each side starts from the same disk: without
 * it, the side after raw nedb's 100 MB of unsynced writes paid for their writeback inside its own fsyncs.
 */
const quietDisk = () => new Promise((resolve) => spawn('sync').once('exit', resolve));

async function compareAppends(root: string) {
  const threads = Math.min(THREADS, 1_000);
  const batch = 10;
  const storeRates: Record<FsyncMode, number[]> = { always: [], batch: [], off: [] };
  const rawRates: number[] = [];
  for (let round = 0; round < COMPARE_ROUNDS; round++) {
    const rawDir = path.join(root, `raw-${round}`);
    await fs.mkdir(rawDir);
    const batches = documentsOf('raw_', COMPARE_ROWS, threads, batch);
    const stores = new Map<string, Datastore<ReturnType<typeof toSegmentDocument>>>();
    await quietDisk();
    let started = performance.now();
    let nextBatch = 0;
    const rawLane = async () => {
      while (nextBatch < batches.length) {
        const documents = batches[nextBatch++]!;
        const threadId = documents[0]!.threadId;
        let datastore = stores.get(threadId);
        if (!datastore) {
          datastore = Datastore.create({ filename: path.join(rawDir, `${stores.size}.db`), autoload: false });
          stores.set(threadId, datastore);
          await datastore.load();
        }
        await datastore.insert(documents);
      }
    };
    await Promise.all(Array.from({ length: BUILD_IN_FLIGHT }, rawLane));
    rawRates.push(COMPARE_ROWS / ((performance.now() - started) / 1000));
    for (const mode of ['batch', 'off', 'always'] as const) {
      if (mode === 'always' && round >= 2) continue; // slowest by design; two rounds tell its cost
      const dataDir = path.join(root, `store-${mode}-${round}`);
      const store = await openNedbEventStore({ dataDir, fsync: mode });
      await quietDisk();
      started = performance.now();
      await appendRows(store, COMPARE_ROWS, threads, 'cmp_', batch, BUILD_IN_FLIGHT);
      storeRates[mode].push(COMPARE_ROWS / ((performance.now() - started) / 1000));
      await store.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
    await fs.rm(rawDir, { recursive: true, force: true });
  }
  const raw = median(rawRates);
  console.log(
    `append throughput (${COMPARE_ROWS} rows, ${threads} threads, ${batch}-row appends, ${BUILD_IN_FLIGHT} in flight; median of ${COMPARE_ROUNDS} alternating rounds, spread):`,
  );
  console.log(`  raw nedb batched inserts (one datastore per thread, no fsync): ${Math.round(raw)} rows/s (${spread(rawRates)})`);
  for (const mode of ['batch', 'always', 'off'] as const) {
    const rate = median(storeRates[mode]);
    console.log(
      `  store, ATS_FSYNC=${mode}${mode === 'batch' ? ' (default)' : ''}: ${Math.round(rate)} rows/s (${spread(storeRates[mode])}), ${(rate / raw).toFixed(2)}× raw nedb`,
    );
  }
}

/** One append at a time (nothing to group): what each mode costs a lone append. */
async function loneAppendLatency(root: string) {
  const parts: string[] = [];
  for (const mode of ['always', 'batch', 'off'] as const) {
    const dataDir = path.join(root, `lone-${mode}`);
    const store = await openNedbEventStore({ dataDir, fsync: mode });
    const times: number[] = [];
    for (let i = 0; i < 500; i++) {
      const started = performance.now();
      await store.append([eventOf(`lone_${i % 50}`, i)]);
      times.push(performance.now() - started);
    }
    await store.close();
    await fs.rm(dataDir, { recursive: true, force: true });
    parts.push(`${mode} p50 ${fmt(median(times))} p99 ${fmt(percentile(times, 99))}`);
  }
  console.log(`lone append (one row, one at a time, 500 appends over 50 threads): ${parts.join('; ')}`);
  // The disk's own price, for scale: what one fdatasync of a small append costs here, now.
  const probe = path.join(root, 'fsync-probe');
  const handle = await fs.open(probe, 'a');
  const syncs: number[] = [];
  for (let i = 0; i < 300; i++) {
    const started = performance.now();
    await handle.write(Buffer.alloc(2_000, 97));
    await handle.datasync();
    syncs.push(performance.now() - started);
  }
  await handle.close();
  await fs.rm(probe);
  console.log(`raw write + fdatasync of 2 KB on this disk (300 in a row): p50 ${fmt(median(syncs))}, p99 ${fmt(percentile(syncs, 99))}`);
}

/** Appends of one row each, paced at PACED_RATE over 200 threads; latency from the scheduled moment to the ack. */
async function pacedLatency(root: string) {
  const dataDir = path.join(root, 'paced');
  const store = await openNedbEventStore({ dataDir, checkpointMs: Number(flag('checkpoint-ms')) || undefined });
  const latencies: number[] = [];
  // Counted, not kept in an array: 50,000 retained promises would add the bench's own major GCs to the tail.
  let outstanding = 0;
  let allAcked = () => {};
  const perTick = (PACED_RATE * PACE_TICK_MS) / 1000;
  const started = performance.now();
  let sent = 0;
  for (let tick = 0; tick < (PACED_SECONDS * 1000) / PACE_TICK_MS; tick++) {
    const due = started + tick * PACE_TICK_MS;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    for (let i = 0; i < perTick; i++) {
      const n = sent++;
      outstanding++;
      void store.append([eventOf(`paced_${n % 200}`, n)]).then(() => {
        latencies.push(performance.now() - due);
        if (--outstanding === 0) allAcked();
      });
    }
  }
  if (outstanding > 0) await new Promise<void>((resolve) => (allAcked = resolve));
  const achieved = sent / ((performance.now() - started) / 1000);
  await store.close();
  await fs.rm(dataDir, { recursive: true, force: true });
  console.log(
    `append→ack at ${PACED_RATE}/s (one-row appends over 200 threads, default fsync, ${sent} appends, ${Math.round(achieved)}/s achieved): p50 ${fmt(median(latencies))}, p99 ${fmt(percentile(latencies, 99))}`,
  );
}

async function main() {
  const root = flag('dir') ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'bench-store-')));
  await fs.mkdir(root, { recursive: true });
  const dataDir = path.join(root, 'data');
  const emptyDir = path.join(root, 'empty');
  console.log(`bench:store in ${root} (${os.cpus().length} cores, node ${process.version})`);
  try {
    const built = await fs.access(path.join(dataDir, 'events')).then(
      () => true,
      () => false,
    );
    if (built && KEEP) console.log(`build: reusing ${dataDir}`);
    else await build(dataDir);
    const du = await new Promise<string>((resolve) => {
      const child = spawn('du', ['-sh', dataDir]);
      let out = '';
      child.stdout.on('data', (chunk) => (out += chunk));
      child.on('close', () => resolve(out.split('\t')[0] ?? '?'));
    });
    if (part('start')) {
      // Built the way `npm start`'s prestart builds it; starts alternate so both sides see the same machine.
      await new Promise((resolve) =>
        spawn(process.execPath, [path.join(REPO, 'src', 'build', 'ensureBuilt.mjs')], { stdio: 'inherit' }).once('exit', resolve),
      );
      const full: { ms: number; rssMb: number }[] = [];
      const empty: { ms: number; rssMb: number }[] = [];
      for (let round = 0; round < START_ROUNDS; round++) {
        full.push(await serverStart(dataDir));
        empty.push(await serverStart(emptyDir));
      }
      console.log(
        `start (spawn → "listening", real server, compiled): ${du} data dir ${Math.round(median(full.map((s) => s.ms)))} ms (${spread(full.map((s) => s.ms))}), empty data dir ${Math.round(median(empty.map((s) => s.ms)))} ms (${spread(empty.map((s) => s.ms))})`,
      );
      console.log(
        `idle RSS 3 s after listening: ${du} data dir ${full.map((s) => s.rssMb).join(' / ')} MB, empty data dir ${empty.map((s) => s.rssMb).join(' / ')} MB`,
      );
    }
    if (part('reads')) await reads(dataDir);
    if (part('appends')) await compareAppends(root);
    if (part('lone')) await loneAppendLatency(root);
    if (part('paced')) await pacedLatency(root);
  } finally {
    if (!KEEP) await fs.rm(root, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
