/**
 * `npm run bench:replicas`: two replicas on one fresh PostgreSQL database, in this process. Intake frames go
 * into a thread through replica A at a paced rate; each delta's latency is from A's ack to its arrival on an
 * SSE stream of replica B (the cross-replica path: NOTIFY, then a read by cursor), beside the same on A's own
 * stream. Then events pages (100 rows after a random cursor) through each replica.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { configWith } from '../src/config/serverConfig';
import { startServer, type RunningServer } from '../src/server/startServer';
import { withScratchDatabase } from './lib/scratchDatabase';

const TOKEN = 'bench-token-0123456789abcdef';
const FRAMES = 2_000;
const RATE_PER_SECOND = 200;
const PAGES = 300;

const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]!;

async function api(server: RunningServer, pathname: string, body?: unknown) {
  const response = await fetch(`${server.url}/api/v1${pathname}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${pathname}: ${response.status} ${await response.text()}`);
  return response.json() as Promise<any>;
}

/** Arrival time of each delta text on an SSE stream. */
async function watch(server: RunningServer, threadId: string, arrivals: Map<string, number>, controller: AbortController) {
  const response = await fetch(`${server.url}/api/v1/threads/${threadId}/events/stream`, {
    headers: { authorization: `Bearer ${TOKEN}` },
    signal: controller.signal,
  });
  void (async () => {
    let buffer = '';
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += Buffer.from(chunk).toString('utf8');
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = /^data: (.*)$/m.exec(event)?.[1];
          if (!data) continue;
          const row = JSON.parse(data);
          if (row.type === 'item/agentMessage/delta') arrivals.set(row.data.delta, performance.now());
        }
      }
    } catch {
      // aborted
    }
  })();
}

async function main() {
  await withScratchDatabase(async (url) => {
    const dirs = await Promise.all(['a', 'b'].map((label) => mkdtemp(path.join(os.tmpdir(), `bench-replica-${label}-`))));
    const servers: RunningServer[] = [];
    try {
      for (const [i, dataDir] of dirs.entries()) {
        servers.push(
          await startServer({
            config: configWith({ port: 0, token: TOKEN, dataDir, databaseUrl: url, embeddedHost: i === 0 }),
            log: () => {},
          }),
        );
      }
      const [a, b] = servers as [RunningServer, RunningServer];
      const project = await api(a, '/projects', { name: 'bench', source: { type: 'local_path', path: dirs[0], hostId: a.hostId } });
      const thread = await api(a, '/threads', { projectId: project.id, provider: 'pi', model: 'fake/model', title: 'bench' });
      const controller = new AbortController();
      const onA = new Map<string, number>();
      const onB = new Map<string, number>();
      await watch(a, thread.id, onA, controller);
      await watch(b, thread.id, onB, controller);

      const intake = new WebSocket(`${a.url.replace('http', 'ws')}/api/v1/intake`, { headers: { authorization: `Bearer ${TOKEN}` } });
      await new Promise((resolve, reject) => intake.once('open', resolve).once('error', reject));
      const acked = new Map<string, number>();
      const waiting = new Map<number, string>();
      intake.on('message', (data) => {
        const message = JSON.parse(data.toString());
        const delta = waiting.get(message.id);
        if (delta !== undefined && message.result) acked.set(delta, performance.now());
      });
      const send = (id: number, message: unknown) =>
        intake.send(JSON.stringify({ jsonrpc: '2.0', id, method: 'sdk/message', params: { threadId: thread.id, message } }));
      const assistant = {
        role: 'assistant',
        content: [],
        api: 'x',
        provider: 'x',
        model: 'x',
        usage: {
          input: 0,
          output: 0,
          cacheRead: 0,
          cacheWrite: 0,
          totalTokens: 0,
          cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
        },
        stopReason: 'stop',
        timestamp: 1,
      };
      send(1, { type: 'agent_start' });
      send(2, { type: 'message_start', message: assistant });
      for (let i = 0; i < FRAMES; i++) {
        const delta = `d${i} `;
        waiting.set(100 + i, delta);
        send(100 + i, {
          type: 'message_update',
          message: assistant,
          assistantMessageEvent: { type: 'text_delta', contentIndex: 0, delta },
        });
        await new Promise((resolve) => setTimeout(resolve, 1000 / RATE_PER_SECOND));
      }
      const deadline = Date.now() + 10_000;
      while ((onB.size < FRAMES || acked.size < FRAMES) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      const latencies = (arrivals: Map<string, number>) =>
        [...acked].filter(([delta]) => arrivals.has(delta)).map(([delta, at]) => Math.max(0, arrivals.get(delta)! - at));
      const [sameReplica, crossReplica] = [latencies(onA), latencies(onB)];
      console.log(`${FRAMES} deltas at ${RATE_PER_SECOND}/s into replica A; delivered on B: ${crossReplica.length}/${FRAMES}`);
      console.log(`ack on A → SSE on A: p50 ${quantile(sameReplica, 0.5).toFixed(1)} ms, p99 ${quantile(sameReplica, 0.99).toFixed(1)} ms`);
      console.log(
        `ack on A → SSE on B: p50 ${quantile(crossReplica, 0.5).toFixed(1)} ms, p99 ${quantile(crossReplica, 0.99).toFixed(1)} ms (goal p99 <= 250 ms)`,
      );
      intake.close();
      controller.abort();

      const total = FRAMES; // the thread holds these deltas and a few rows before them
      for (const [label, server] of [
        ['A', a],
        ['B', b],
      ] as const) {
        const times: number[] = [];
        for (let i = 0; i < PAGES; i++) {
          const afterSeq = Math.floor(Math.random() * (total - 100));
          const started = performance.now();
          await api(server, `/threads/${thread.id}/events?afterSeq=${afterSeq}&limit=100`);
          times.push(performance.now() - started);
        }
        console.log(
          `events page (100 rows after a random cursor) through replica ${label}: p50 ${quantile(times, 0.5).toFixed(1)} ms, p99 ${quantile(times, 0.99).toFixed(1)} ms`,
        );
      }
    } finally {
      for (const server of servers.reverse()) await server.close();
      await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
    }
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
