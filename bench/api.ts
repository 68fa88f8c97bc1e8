/**
 * npm run bench:api — the read side of the API against in-process reads of the same store, same run:
 *  1. events page: `GET /threads/:id/events?afterSeq=X&limit=100` on a thread of 100k rows, p50/p99 (node:http
 *     client on a kept-alive connection), each page read a first time and again, vs
 *     `store.list(threadId, { afterSeq: X, limit: 100 })` in process, both timed after untimed warm-up reads;
 *  2. SSE fan-out: 100 subscribers on one thread receive 10k events; delivery latency (stored → parsed by
 *     the client) p50/p99, vs the same batches appended and read back by cursor in process, and vs a
 *     subscriber on the in-process event hub;
 *  3. intake: frames/s of one pi bridge streaming deltas over the WebSocket intake, vs the same frames
 *     handed to the embedded daemon's `thread.ingest` in process (no socket, no envelope check).
 *  4. events page over HTTPS (issue 30): the page of 1. from a second server, on a copy of the data dir, with a
 *     certificate made for the run, against the same page over HTTP, same cursors (bench/lib/tlsEventsPage.ts).
 * Everything runs in one process on loopback (clients included), so ratios, not absolute numbers, matter.
 * `BENCH_API_PARTS=page,sse,intake,tls` (the default: all) runs only the parts named.
 */
import { registerBenchThread } from './lib/benchThread';
import { compareTlsEventsPage } from './lib/tlsEventsPage';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { lastValueFrom, from } from 'rxjs';
import WebSocket from 'ws';
import { configWith } from '../src/config/serverConfig';
import { publishingStore } from '../src/server/sse/publishingStore';
import { startServer } from '../src/server/startServer';
import type { NewThreadEvent, StoredThreadEvent } from '../src/store/eventStore';
import { openNedbEventStore } from '../src/store/nedb/nedbEventStore';

const ROWS = 100_000;
const APPEND_BATCH = 2_000;
const PAGE_LIMIT = 100;
/** 500 full pages of this thread (~12 M characters) fit the server's kept pages (16 M), so "again" reads a kept one. */
const PAGE_READS = 500;
/**
 * Page reads on each side before the timed ones, at cursors the timed reads never use: a server answers pages
 * all day, so the timed reads should meet the code as V8 has optimised it, not its first calls (over the
 * first 200 reads of a fresh process the HTTP side ran at 3.4× the store's, against 2.5× once warm).
 */
const PAGE_WARMUP_READS = 2_000;
/** The timed cursors in order, cut into this many slices, each slice's p50 ratio printed as the spread. */
const PAGE_RATIO_SLICES = 5;
const SUBSCRIBERS = 100;
const FANOUT_EVENTS = 10_000;
/** Events appended per step; the next step waits until every subscriber has the last one (no queueing). */
const FANOUT_BATCH = 50;
const INTAKE_FRAMES = 5_000;
const TOKEN = 'bench-token-0123456789abcdef';

const delta = (threadId: string, i: number): NewThreadEvent => ({
  threadId,
  type: 'item/agentMessage/delta',
  turnId: 'turn-1',
  scope: { kind: 'turn', turnId: 'turn-1' },
  data: { providerThreadId: threadId, itemId: 'item-1', delta: `word${i} ` },
});

const keepAlive = new http.Agent({ keepAlive: true });

/** A GET on one kept-alive connection with node:http, the body as text: the client costs little next to the server. */
function getText(url: string, headers: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers, agent: keepAlive }, (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () =>
          response.statusCode === 200 ? resolve(text) : reject(new Error(`${url}: ${response.statusCode} ${text}`)),
        );
      })
      .on('error', reject);
  });
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
const ms = (value: number) => `${value.toFixed(3)} ms`;
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;

async function seedRows(dataDir: string, threadId: string): Promise<void> {
  const store = await openNedbEventStore({ dataDir });
  for (let start = 0; start < ROWS; start += APPEND_BATCH) {
    const batch = Array.from({ length: APPEND_BATCH }, (_, i) => delta(threadId, start + i));
    await lastValueFrom(from(store.append(batch)));
  }
  await store.close();
}

const PARTS = new Set((process.env.BENCH_API_PARTS ?? 'page,sse,intake,tls').split(','));

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'ats-bench-api-'));
  const bigThread = 'thr_bench_big';
  const fanThread = 'thr_bench_fan';
  let started = performance.now();
  const tlsDataDir = `${dataDir}-tls`;
  if (PARTS.has('page') || PARTS.has('tls')) {
    await seedRows(dataDir, bigThread);
    console.log(`seeded ${ROWS} rows in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    if (PARTS.has('tls')) await cp(dataDir, tlsDataDir, { recursive: true });
  }

  started = performance.now();
  const server = await startServer({ config: configWith({ port: 0, token: TOKEN, dataDir }), log: () => {} });
  console.log(`server up (store loaded) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  await registerBenchThread(server, bigThread);
  await registerBenchThread(server, fanThread);
  const headers = { authorization: `Bearer ${TOKEN}` };

  if (PARTS.has('page')) await pageBench();
  async function pageBench() {
    // 1. events page: each cursor read twice on each side, first (the server has not sent that page yet) and
    // again (a client paging back, a second client catching up on the same rows: the server keeps full pages).
    // Distinct cursors: a cursor drawn twice would be a read again in the first reads.
    const timed = new Set<number>();
    while (timed.size < PAGE_READS) timed.add(Math.floor(Math.random() * (ROWS - PAGE_LIMIT)));
    const cursors = [...timed];
    const times = { store: [] as number[], http: [] as number[], storeAgain: [] as number[], httpAgain: [] as number[] };
    const measure = async (side: 'store' | 'http', afterSeq: number, into: number[]) => {
      const t0 = performance.now();
      if (side === 'store') {
        const rows = await server.store.list(bigThread, { afterSeq, limit: PAGE_LIMIT });
        if (rows[0]?.seq !== afterSeq + 1) throw new Error('store read skipped a seq');
      } else {
        const rows = JSON.parse(
          await getText(`${server.url}/api/v1/threads/${bigThread}/events?afterSeq=${afterSeq}&limit=${PAGE_LIMIT}`, headers),
        ) as StoredThreadEvent[];
        if (rows.length !== PAGE_LIMIT || rows[0]!.seq !== afterSeq + 1) throw new Error('HTTP read skipped a seq');
      }
      into.push(performance.now() - t0);
    };
    const warmup = { store: [] as number[], http: [] as number[] };
    for (let read = 0; read < PAGE_WARMUP_READS; read++) {
      const afterSeq = Math.floor(Math.random() * (ROWS - PAGE_LIMIT));
      if (timed.has(afterSeq)) continue; // a warm-up read would keep that page's text for the timed one
      await measure('store', afterSeq, warmup.store);
      await measure('http', afterSeq, warmup.http);
    }
    for (const [first, again] of [
      ['store', 'http'],
      ['storeAgain', 'httpAgain'],
    ] as const) {
      for (const [index, afterSeq] of cursors.entries()) {
        // Alternate which side goes first so neither always reads a warm cache.
        if (index % 2 === 0) await measure('store', afterSeq, times[first]).then(() => measure('http', afterSeq, times[again]));
        else await measure('http', afterSeq, times[again]).then(() => measure('store', afterSeq, times[first]));
      }
    }
    // The client's own floor: a request that reads nothing (fetch's web streams alone cost ~3x this per page).
    const floor: number[] = [];
    for (let i = 0; i < PAGE_READS; i++) {
      const t0 = performance.now();
      await getText(`${server.url}/api/v1/health`, {});
      floor.push(performance.now() - t0);
    }
    const line = (label: string, values: number[]) =>
      console.log(`  ${label.padEnd(32)} p50 ${ms(percentile(values, 50))}  p99 ${ms(percentile(values, 99))}`);
    // Both sides read the same cursors in the same order, so a slice of each is the same minutes of the machine:
    // the slices' p50 ratios are the run's own spread.
    const slices = (http: number[], store: number[]) => {
      const size = Math.ceil(http.length / PAGE_RATIO_SLICES);
      const perSlice = Array.from({ length: PAGE_RATIO_SLICES }, (_, i) => {
        const [from, to] = [i * size, (i + 1) * size];
        return percentile(http.slice(from, to), 50) / percentile(store.slice(from, to), 50);
      });
      return `${PAGE_RATIO_SLICES} slices of ${size} cursors ${Math.min(...perSlice).toFixed(2)}–${Math.max(...perSlice).toFixed(2)}×`;
    };
    const ratios = (label: string, http: number[], store: number[]) =>
      console.log(
        `  ratio ${label.padEnd(26)} p50 ${ratio(percentile(http, 50), percentile(store, 50))} (${slices(http, store)})  p99 ${ratio(percentile(http, 99), percentile(store, 99))}`,
      );
    console.log(`\nevents page (limit ${PAGE_LIMIT}, thread of ${ROWS} rows, ${PAGE_READS} random cursors, each read twice)`);
    line('warm-up: in-process store.list', warmup.store);
    line('warm-up: GET …/events', warmup.http);
    line('in-process store.list', [...times.store, ...times.storeAgain]);
    line('GET …/events, first read', times.http);
    line('GET …/events, read again', times.httpAgain);
    line('GET /health (the HTTP floor)', floor);
    ratios('HTTP first / in-process', times.http, times.store);
    ratios('HTTP again / in-process', times.httpAgain, times.storeAgain);
  }

  if (PARTS.has('sse')) await sseBench();
  async function sseBench() {
    // 2. SSE fan-out
    const storedAt = new Map<number, number>();
    const sseLatency: number[] = [];
    const hubLatency: number[] = [];
    const received = new Array<number>(SUBSCRIBERS).fill(0);
    const hubSubscription = server.hub.rowsOf$(fanThread).subscribe((row) => hubLatency.push(performance.now() - storedAt.get(row.seq)!));
    const controllers: AbortController[] = [];
    let waiter: (() => void) | undefined;
    const allHave = (seq: number) => received.every((count) => count >= seq);
    await Promise.all(
      Array.from({ length: SUBSCRIBERS }, async (_, client) => {
        const controller = new AbortController();
        controllers.push(controller);
        const response = await fetch(`${server.url}/api/v1/threads/${fanThread}/events/stream`, { headers, signal: controller.signal });
        const decoder = new TextDecoder();
        let buffer = '';
        (async () => {
          try {
            for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
              buffer += decoder.decode(chunk, { stream: true });
              let end: number;
              while ((end = buffer.indexOf('\n\n')) >= 0) {
                const block = buffer.slice(0, end);
                buffer = buffer.slice(end + 2);
                const data = block.split('\n').find((line) => line.startsWith('data: '));
                if (!data) continue;
                const row = JSON.parse(data.slice(6)) as StoredThreadEvent;
                sseLatency.push(performance.now() - storedAt.get(row.seq)!);
                received[client] = row.seq;
              }
              if (waiter) waiter();
            }
          } catch {
            // aborted at the end
          }
        })();
      }),
    );
    while (server.hub.subscriberCount() < SUBSCRIBERS + 1) await new Promise((resolve) => setTimeout(resolve, 10));
    const writer = publishingStore(server.store, server.hub);
    started = performance.now();
    // CPU of the whole process (server, its worker threads and the 100 clients) over the fan-out: what the code
    // costs per delivery, far less moved by other processes' load than the latencies are.
    const cpuAtStart = process.cpuUsage();
    for (let start = 0; start < FANOUT_EVENTS; start += FANOUT_BATCH) {
      const batch = Array.from({ length: FANOUT_BATCH }, (_, i) => delta(fanThread, start + i));
      // Seqs are known in advance (one writer), so "stored" is stamped just before the rows are published.
      const t0 = performance.now();
      for (let i = 1; i <= FANOUT_BATCH; i++) storedAt.set(start + i, t0);
      await lastValueFrom(from(writer.append(batch)));
      const last = start + FANOUT_BATCH;
      await new Promise<void>((resolve) => {
        waiter = () => allHave(last) && resolve();
        waiter();
      });
    }
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuAtStart);
    const cpuLine = `  CPU over the fan-out: user ${(cpu.user / 1e6).toFixed(2)} s, system ${(cpu.system / 1e6).toFixed(2)} s, wall ${seconds.toFixed(2)} s; ${((cpu.user + cpu.system) / (FANOUT_EVENTS * SUBSCRIBERS)).toFixed(2)} µs a delivery`;
    hubSubscription.unsubscribe();
    controllers.forEach((controller) => controller.abort());
    // The baseline: the same batches appended to the same store and read back in process by cursor
    // (no hub, no HTTP); latency from the append's start to the rows in hand, as for the other two.
    const readLatency: number[] = [];
    for (let start = 0; start < FANOUT_EVENTS; start += FANOUT_BATCH) {
      const t0 = performance.now();
      await lastValueFrom(
        from(server.store.append(Array.from({ length: FANOUT_BATCH }, (_, i) => delta('thr_bench_fan_read', start + i)))),
      );
      const rows = await server.store.list('thr_bench_fan_read', { afterSeq: start, limit: FANOUT_BATCH });
      if (rows.length !== FANOUT_BATCH) throw new Error('store read missed rows');
      const t1 = performance.now();
      for (let i = 0; i < FANOUT_BATCH; i++) readLatency.push(t1 - t0);
    }
    console.log(
      `\nSSE fan-out (${SUBSCRIBERS} subscribers × ${FANOUT_EVENTS} events, batches of ${FANOUT_BATCH}; ${((FANOUT_EVENTS * SUBSCRIBERS) / seconds).toFixed(0)} deliveries/s)`,
    );
    console.log(cpuLine);
    console.log(`  in-process append + store.list   p50 ${ms(percentile(readLatency, 50))}  p99 ${ms(percentile(readLatency, 99))}`);
    console.log(`  in-process hub subscriber        p50 ${ms(percentile(hubLatency, 50))}  p99 ${ms(percentile(hubLatency, 99))}`);
    console.log(`  SSE client (each of ${SUBSCRIBERS})      p50 ${ms(percentile(sseLatency, 50))}  p99 ${ms(percentile(sseLatency, 99))}`);
    console.log(
      `  ratio SSE / in-process store read p50 ${ratio(percentile(sseLatency, 50), percentile(readLatency, 50))}  p99 ${ratio(percentile(sseLatency, 99), percentile(readLatency, 99))}`,
    );
    console.log(
      `  ratio SSE / in-process hub        p50 ${ratio(percentile(sseLatency, 50), percentile(hubLatency, 50))}  p99 ${ratio(percentile(sseLatency, 99), percentile(hubLatency, 99))}`,
    );
    if (sseLatency.length !== SUBSCRIBERS * FANOUT_EVENTS)
      throw new Error(`expected ${SUBSCRIBERS * FANOUT_EVENTS} deliveries, got ${sseLatency.length}`);
  }

  if (PARTS.has('intake')) await intakeBench();
  async function intakeBench() {
    // 3. intake
    const intakeRate = async (threadId: string, send: (frame: unknown) => void, last: (frame: unknown) => Promise<unknown>) => {
      await registerBenchThread(server, threadId);
      send(envelope(threadId, { type: 'agent_start' }));
      send(envelope(threadId, { type: 'message_start', message: { role: 'assistant', content: [] } }));
      const t0 = performance.now();
      for (let i = 0; i < INTAKE_FRAMES; i++)
        send(
          envelope(threadId, {
            type: 'message_update',
            message: { role: 'assistant' },
            assistantMessageEvent: { type: 'text_delta', delta: `w${i} ` },
          }),
        );
      await last({ ...envelope(threadId, { type: 'turn_start' }), id: 1 });
      const rate = INTAKE_FRAMES / ((performance.now() - t0) / 1000);
      if ((await server.store.lastSeq(threadId)) !== INTAKE_FRAMES + 2) throw new Error(`intake lost frames on ${threadId}`);
      return rate;
    };
    const link = server.hosts.linkOf(server.hostId)!;
    const pending: Promise<unknown>[] = [];
    const inProcessRate = await intakeRate(
      'thr_bench_link',
      (frame) => pending.push(link.request('thread.ingest', { frame })),
      async (frame) => Promise.all([...pending, link.request('thread.ingest', { frame })]),
    );
    const socket = new WebSocket(`${server.url.replace('http', 'ws')}/api/v1/intake`, { headers });
    await new Promise((resolve) => socket.once('open', resolve));
    const intakeRateWs = await intakeRate(
      'thr_bench_intake',
      (frame) => socket.send(JSON.stringify(frame)),
      (frame) =>
        new Promise((resolve) => {
          socket.on('message', resolve);
          socket.send(JSON.stringify(frame));
        }),
    );
    socket.close();
    console.log(`\nintake (${INTAKE_FRAMES} text deltas from one sender)`);
    console.log(`  in-process thread.ingest   ${inProcessRate.toFixed(0)} frames/s`);
    console.log(`  WebSocket intake           ${intakeRateWs.toFixed(0)} frames/s`);
    console.log(`  ratio intake / in-process  ${(intakeRateWs / inProcessRate).toFixed(2)}×`);
  }

  if (PARTS.has('tls'))
    await compareTlsEventsPage({
      plain: server,
      tlsDataDir,
      threadId: bigThread,
      rows: ROWS,
      pageLimit: PAGE_LIMIT,
      reads: PAGE_READS,
      warmupReads: PAGE_WARMUP_READS / 2,
      token: TOKEN,
    });

  keepAlive.destroy();
  await server.close();
  await rm(dataDir, { recursive: true, force: true });
  await rm(tlsDataDir, { recursive: true, force: true });
}

function envelope(threadId: string, message: unknown) {
  return { jsonrpc: '2.0', method: 'sdk/message', params: { threadId, message } };
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
