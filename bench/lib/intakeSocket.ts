/**
 * The intake side of `npm run bench:ingest`: the same envelopes streamed through one intake WebSocket of a
 * real server (embedded daemon, no agent provider), every frame a request, timed until every frame is acked
 * (answered after its rows are stored). Clients run in this process, on loopback.
 */
import { registerBenchThread } from './benchThread';
import { offerPaced } from './pace';
import { settleBeforeTiming } from './settle';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { configWith } from '../../src/config/serverConfig';
import { startServer, type RunningServer } from '../../src/server/startServer';
import type { StoredThreadEvent } from '../../src/store/eventStore';

const TOKEN = 'bench-token-0123456789abcdef';

export interface IntakeBench {
  server: RunningServer;
  close(): Promise<void>;
}

export async function startIntakeBench(): Promise<IntakeBench> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-intake-'));
  const server = await startServer({
    config: configWith({ port: 0, token: TOKEN, dataDir, agentProviders: 'none', hostCommandTimeoutMs: 120_000 }),
    log: () => {},
  });
  return {
    server,
    async close() {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Registers every thread the frames name (directly in the registry: the bench measures the intake, not POST /threads). */
export async function registerThreads(server: RunningServer, frames: unknown[]): Promise<string[]> {
  const threadIds = [...new Set(frames.map((frame) => (frame as { params: { threadId: string } }).params.threadId))];
  const createdAt = new Date().toISOString();
  for (const id of threadIds) await registerBenchThread(server, id, createdAt);
  return threadIds;
}

async function openSocket(server: RunningServer): Promise<WebSocket> {
  const socket = new WebSocket(`${server.url.replace('http', 'ws')}/api/v1/intake`, { headers: { authorization: `Bearer ${TOKEN}` } });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  return socket;
}

/** Every frame as a request with its index as id, sent as one text each. */
export function requestTexts(frames: unknown[]): string[] {
  return frames.map((frame, id) => JSON.stringify({ ...(frame as object), id }));
}

interface Answers {
  /** Resolves once every id has its answer; rejects at the first error answer. */
  all: Promise<void>;
  /** performance.now() when each id was answered. */
  answeredAt: Float64Array;
}

function collectAnswers(socket: WebSocket, count: number): Answers {
  const answeredAt = new Float64Array(count);
  let left = count;
  const all = new Promise<void>((resolve, reject) => {
    socket.on('message', (data) => {
      const answer = JSON.parse(data.toString()) as { id: number; error?: unknown };
      if (answer.error) return reject(new Error(`intake refused frame ${answer.id}: ${JSON.stringify(answer.error)}`));
      answeredAt[answer.id] = performance.now();
      if (--left === 0) resolve();
    });
  });
  return { all, answeredAt };
}

/** Wall and process CPU seconds from the first frame sent to the last ack, and the rows the frames stored. */
export async function intakeThroughput(server: RunningServer, frames: unknown[]) {
  const threadIds = await registerThreads(server, frames);
  const texts = requestTexts(frames);
  const socket = await openSocket(server);
  const answers = collectAnswers(socket, texts.length);
  const wall = performance.now();
  const cpu = process.cpuUsage();
  for (const text of texts) socket.send(text);
  await answers.all;
  const used = process.cpuUsage(cpu);
  const time = { seconds: (performance.now() - wall) / 1000, cpuSeconds: (used.user + used.system) / 1e6 };
  socket.close();
  const rows: StoredThreadEvent[] = [];
  for (const threadId of threadIds) rows.push(...(await server.store.list(threadId)));
  return { ...time, rows };
}

/** Frames offered at `ratePerSecond` on one socket; latency of each from its send to its ack, in ms. */
export async function intakePacedLatency(server: RunningServer, frames: unknown[], ratePerSecond: number, tickMs: number) {
  await registerThreads(server, frames);
  const texts = requestTexts(frames);
  const socket = await openSocket(server);
  const answers = collectAnswers(socket, texts.length);
  const sentAt = new Float64Array(texts.length);
  await settleBeforeTiming();
  const started = await offerPaced(texts.length, ratePerSecond, tickMs, (index) => {
    sentAt[index] = performance.now();
    socket.send(texts[index]!);
  });
  await answers.all;
  const seconds = (performance.now() - started) / 1000;
  socket.close();
  return { offeredRate: texts.length / seconds, latencies: Array.from(answers.answeredAt, (at, i) => at - sentAt[i]!) };
}
