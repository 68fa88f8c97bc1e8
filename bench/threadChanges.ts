/**
 * npm run bench:thread-changes — what one owner per thread (issue 37) costs a thread change, against the same
 * server in the same run with the thread lock swapped for a pass-through (the code before issue 37), rounds
 * alternating so the machine's load of the moment falls on both sides alike:
 *  1. `PATCH /threads/:id {title}` one after another on one thread: p50/p99 per request;
 *  2. `PATCH` of 20 threads at once, 10 each: requests/s (changes of different threads never wait for each other);
 *  3. `POST /threads` (no prompt): p50, which takes no lock (a new thread has no other change yet).
 * Against the embedded store, then against PostgreSQL (a scratch database; skipped when none is reachable), where
 * the lock is the in-process queue and a session advisory lock per thread on the lock pool.
 * `BENCH_ROUNDS` (default 4) rounds each side; `BENCH_STORES=postgres` measures PostgreSQL only.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { configWith } from '../src/config/serverConfig';
import type { ThreadLock } from '../src/registry/threadLock';
import { startServer, type RunningServer } from '../src/server/startServer';
import { fakeProvider } from '../test/helpers/fakes/provider';
import { withScratchDatabase } from './lib/scratchDatabase';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const SEQUENTIAL_PATCHES = 100;
const PARALLEL_THREADS = 20;
const PATCHES_EACH = 10;
const CREATES = 50;
const TOKEN = 'bench-token-0123456789abcdef';
const passThrough: ThreadLock = { run: (_threadId, change) => change() };

/** Kept-alive connections to the server measured (one agent per server). */
const agents = new WeakMap<RunningServer, http.Agent>();

/** One request on a kept-alive connection with node:http; the JSON answer. */
function request(server: RunningServer, method: string, pathname: string, body?: unknown): Promise<any> {
  const agent = agents.get(server) ?? new http.Agent({ keepAlive: true, maxSockets: PARALLEL_THREADS });
  agents.set(server, agent);
  const text = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${server.url}/api/v1${pathname}`,
      {
        method,
        agent,
        headers: { authorization: `Bearer ${TOKEN}`, ...(text ? { 'content-type': 'application/json' } : {}) },
      },
      (response) => {
        let answer = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (answer += chunk));
        response.on('end', () =>
          (response.statusCode ?? 500) < 300
            ? resolve(answer ? JSON.parse(answer) : undefined)
            : reject(new Error(`${pathname}: ${answer}`)),
        );
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;
const timed = async (work: () => Promise<unknown>) => {
  const started = performance.now();
  await work();
  return performance.now() - started;
};

interface Side {
  patchMs: number[];
  parallelPerSecond: number[];
  createMs: number[];
}

async function round(server: RunningServer, projectId: string, side: Side, tag: string): Promise<void> {
  const create = (title: string) => request(server, 'POST', '/threads', { projectId, provider: 'pi', model: 'fake/model', title });
  for (let i = 0; i < CREATES; i++) side.createMs.push(await timed(() => create(`${tag} ${i}`)));
  const thread = await create(`${tag} sequential`);
  for (let i = 0; i < SEQUENTIAL_PATCHES; i++)
    side.patchMs.push(await timed(() => request(server, 'PATCH', `/threads/${thread.id}`, { title: `${tag} ${i}` })));
  const threads = await Promise.all(Array.from({ length: PARALLEL_THREADS }, (_, i) => create(`${tag} parallel ${i}`)));
  const ms = await timed(() =>
    Promise.all(
      threads.map(async (each) => {
        for (let i = 0; i < PATCHES_EACH; i++) await request(server, 'PATCH', `/threads/${each.id}`, { title: `${tag} ${i}` });
      }),
    ),
  );
  side.parallelPerSecond.push((PARALLEL_THREADS * PATCHES_EACH * 1000) / ms);
}

async function measure(label: string, databaseUrl?: string): Promise<void> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-thread-changes-'));
  const project = await mkdtemp(path.join(os.tmpdir(), 'bench-thread-changes-project-'));
  const server = await startServer({
    config: configWith({ port: 0, token: TOKEN, dataDir, fsync: 'batch', ...(databaseUrl ? { databaseUrl } : {}) }),
    providers: [fakeProvider('pi')],
    log: () => {},
  });
  try {
    const { id: projectId } = await request(server, 'POST', '/projects', {
      name: 'bench',
      source: { type: 'local_path', path: project, hostId: server.hostId },
    });
    const owned = server.registry.threadLock;
    const sides = {
      locked: { patchMs: [], parallelPerSecond: [], createMs: [] } as Side,
      before: { patchMs: [], parallelPerSecond: [], createMs: [] } as Side,
    };
    await round(server, projectId, { patchMs: [], parallelPerSecond: [], createMs: [] }, 'warm-up');
    for (let r = 0; r < ROUNDS; r++) {
      for (const name of r % 2 === 0 ? (['locked', 'before'] as const) : (['before', 'locked'] as const)) {
        server.registry.threadLock = name === 'locked' ? owned : passThrough;
        await round(server, projectId, sides[name], `${name} ${r}`);
      }
    }
    server.registry.threadLock = owned;
    const { locked, before } = sides;
    const ratio = (a: number, b: number) => (a / b).toFixed(2);
    const median = (values: number[]) => percentile(values, 50);
    console.log(`${label}:`);
    console.log(
      `  PATCH, one after another: p50 ${median(locked.patchMs).toFixed(2)} ms with the lock, ${median(before.patchMs).toFixed(2)} ms without → ${ratio(median(locked.patchMs), median(before.patchMs))}×; ` +
        `p99 ${percentile(locked.patchMs, 99).toFixed(2)} / ${percentile(before.patchMs, 99).toFixed(2)} ms → ${ratio(percentile(locked.patchMs, 99), percentile(before.patchMs, 99))}×`,
    );
    console.log(
      `  PATCH of ${PARALLEL_THREADS} threads at once: ${median(locked.parallelPerSecond).toFixed(0)} /s with the lock, ${median(before.parallelPerSecond).toFixed(0)} /s without → ${ratio(median(locked.parallelPerSecond), median(before.parallelPerSecond))}×`,
    );
    console.log(
      `  POST /threads (takes no lock): p50 ${median(locked.createMs).toFixed(2)} / ${median(before.createMs).toFixed(2)} ms → ${ratio(median(locked.createMs), median(before.createMs))}×`,
    );
  } finally {
    agents.get(server)?.destroy();
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
    await rm(project, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (process.env.BENCH_STORES !== 'postgres') await measure('embedded store');
  try {
    await withScratchDatabase((url) => measure('PostgreSQL', url));
  } catch (error) {
    console.log(`PostgreSQL: skipped (${error instanceof Error ? (error.stack ?? error.message) : String(error)})`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
