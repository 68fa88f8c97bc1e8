/**
 * `npm run bench:webhook` (issue 31): does the webhook hold up the intake, and how soon after its row is a POST
 * received? A real server (embedded daemon, no agent) takes pi turns through one intake socket; a receiver on
 * 127.0.0.1, in a process of its own, answers at once (`healthy`), or holds every POST unanswered (`held`: the queue
 * fills and drops the oldest).
 *   burst: THREADS × TURNS turns pipelined, time until every frame is acked, against the same with no webhook;
 *   paced: PACED turns one after another (PACE_MS apart), `turn/completed` row's createdAt → POST received.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { configWith } from '../src/config/serverConfig';
import { startServer, type RunningServer } from '../src/server/startServer';
import { startWebhookReceiver } from '../test/helpers/fakes/webhookReceiver';
import { agentEnd, agentStart, assistantStart, textDelta } from '../test/helpers/server/frames';
import { registerBenchThread } from './lib/benchThread';

const THREADS = Number(process.env.THREADS ?? 20);
const TURNS = Number(process.env.TURNS ?? 50);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const PACED = Number(process.env.PACED ?? 100);
const PACE_MS = Number(process.env.PACE_MS ?? 20);
const TOKEN = 'bench-token-0123456789abcdef';

type Mode = 'off' | 'healthy' | 'held';

async function withServer<T>(webhook: string | undefined, run: (server: RunningServer) => Promise<T>): Promise<T> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-webhook-'));
  const server = await startServer({
    config: configWith({
      port: 0,
      token: TOKEN,
      dataDir,
      agentProviders: 'none',
      ...(webhook ? { notifyWebhook: webhook, notifyWebhookSecret: 'bench-webhook-secret-0123' } : {}),
    }),
    log: () => {},
  });
  try {
    return await run(server);
  } finally {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** The receiver process of a burst; `stop` answers how many POSTs it got. */
async function receiverProcess(mode: Mode) {
  const child = spawn(process.execPath, [path.join(__dirname, 'lib', 'webhookReceiver.mjs'), ...(mode === 'held' ? ['hold'] : [])], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => lines.push(...chunk.split('\n').filter(Boolean)));
  while (lines.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
  return {
    url: `http://127.0.0.1:${lines[0]}/hook`,
    async stop(): Promise<number> {
      child.stdin.end();
      await once(child, 'exit');
      return Number(lines[1]);
    },
  };
}

const turnFrames = (threadId: string, n: number) => [
  agentStart(threadId),
  assistantStart(threadId),
  textDelta(threadId, `answer ${n}`),
  agentEnd(threadId, `answer ${n}`),
];

async function intakeSocket(server: RunningServer) {
  const socket = new WebSocket(`${server.url.replace('http', 'ws')}/api/v1/intake`, { headers: { authorization: `Bearer ${TOKEN}` } });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const waiting = new Map<number, () => void>();
  socket.on('message', (data) => {
    const answer = JSON.parse(data.toString()) as { id: number; error?: unknown };
    if (answer.error) throw new Error(`intake refused ${answer.id}: ${JSON.stringify(answer.error)}`);
    waiting.get(answer.id)?.();
    waiting.delete(answer.id);
  });
  let nextId = 0;
  return {
    /** Sends every frame as a request at once; resolves when all are acked. */
    send(frames: unknown[]): Promise<void> {
      return Promise.all(
        frames.map((frame) => {
          const id = nextId++;
          const acked = new Promise<void>((resolve) => waiting.set(id, resolve));
          socket.send(JSON.stringify({ ...(frame as object), id }));
          return acked;
        }),
      ).then(() => undefined);
    },
    close: () => socket.close(),
  };
}

async function burst(mode: Mode): Promise<{ ms: number; posts: number }> {
  const receiver = mode === 'off' ? undefined : await receiverProcess(mode);
  const ms = await withServer(receiver?.url, async (server) => {
    const threads = Array.from({ length: THREADS }, (_, i) => `thr_bench${i}`);
    for (const id of threads) await registerBenchThread(server, id);
    const frames = Array.from({ length: TURNS }, (_, n) => threads.flatMap((id) => turnFrames(id, n))).flat();
    const socket = await intakeSocket(server);
    const started = performance.now();
    await socket.send(frames);
    const ms = performance.now() - started;
    socket.close();
    return ms;
  });
  return { ms, posts: (await receiver?.stop()) ?? 0 };
}

async function paced(): Promise<number[]> {
  const receiver = await startWebhookReceiver();
  return withServer(receiver.url, async (server) => {
    await registerBenchThread(server, 'thr_paced');
    const socket = await intakeSocket(server);
    for (let n = 0; n < PACED; n++) {
      await socket.send(turnFrames('thr_paced', n));
      await new Promise((resolve) => setTimeout(resolve, PACE_MS));
    }
    const deadline = Date.now() + 10_000;
    while (receiver.delivered().length < PACED && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    socket.close();
    await receiver.close();
    return receiver.posts
      .filter((post) => post.status === 200)
      .map((post) => post.receivedAt - Date.parse(JSON.parse(post.body).createdAt));
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;

async function main(): Promise<void> {
  const times: Record<Mode, number[]> = { off: [], healthy: [], held: [] };
  const posts: Record<Mode, number[]> = { off: [], healthy: [], held: [] };
  for (let round = 0; round < ROUNDS; round++)
    for (const mode of ['off', 'healthy', 'held'] as const) {
      const { ms, posts: got } = await burst(mode);
      times[mode].push(ms);
      posts[mode].push(got);
    }
  const frames = THREADS * TURNS * 4;
  const line = (mode: Mode) =>
    `${mode.padEnd(7)} ${median(times[mode]).toFixed(0).padStart(6)} ms (${((frames / median(times[mode])) * 1000).toFixed(0)} frames/s), ` +
    `${(median(times.off) / median(times[mode])).toFixed(2)}× of no webhook; rounds ${times[mode].map((ms) => ms.toFixed(0)).join(', ')}; ` +
    `POSTs received by the end ${posts[mode].join(', ')}`;
  console.log(
    `burst: ${THREADS} threads × ${TURNS} turns (${frames} intake frames, ${THREADS * TURNS} turn/completed rows), median of ${ROUNDS}`,
  );
  for (const mode of ['off', 'healthy', 'held'] as const) console.log(`  ${line(mode)}`);
  const latencies = await paced();
  console.log(
    `paced: ${PACED} turns ${PACE_MS} ms apart, row stored → POST received: ${latencies.length} POSTs, ` +
      `p50 ${median(latencies)} ms, p99 ${percentile(latencies, 0.99)} ms, max ${Math.max(...latencies)} ms (goal ≤ 1000 ms)`,
  );
}

void main();
