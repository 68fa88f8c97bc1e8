/**
 * npm run bench:hosts — (1) intake ingest into threads whose host is a remote daemon on the WebSocket link
 * against threads of the embedded daemon, same server, same run, as a ratio (goal >= 0.7x), for a remote
 * daemon in this process (worst case: its pipeline shares the CPU with the server, every batch is serialised
 * both ways) and for one in a process of its own (`src/cli/daemon.ts`, as deployed); (2) the time a remote
 * daemon needs after its link returns to get a backlog of 10k events, produced while it was cut off, into
 * the server's store. Sizes are named below; a run takes ~15 s.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { configWith } from '../src/config';
import { DaemonConfigSchema } from '../src/link/daemonConfig';
import { startRemoteDaemon } from '../src/link/startRemoteDaemon';
import { startServer } from '../src/server/startServer';

const TOKEN = 'bench-token-0123456789abcdef';
const THREADS = 20;
const DELTAS_PER_THREAD = Number(process.env.BENCH_DELTAS ?? 400);
/** Rounds alternate embedded and remote (the machine is shared); medians are compared. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const BACKLOG_EVENTS = 10_000;

const sdk = (threadId: string, message: unknown, id?: number) => ({ jsonrpc: '2.0', method: 'sdk/message', params: { threadId, message }, ...(id === undefined ? {} : { id }) });
const assistant = { role: 'assistant', content: [], api: 'fake', provider: 'fake', model: 'fake', stopReason: 'stop', timestamp: 1 };
const delta = (threadId: string, i: number, id?: number) =>
  sdk(threadId, { type: 'message_update', message: assistant, assistantMessageEvent: { type: 'text_delta', contentIndex: 0, delta: `word${i} ` } }, id);

/** Every thread's turn opens, then deltas interleave thread by thread as concurrent runs would send them. */
function workload(threadIds: string[]): unknown[] {
  const frames: unknown[] = threadIds.flatMap((threadId) => [sdk(threadId, { type: 'agent_start' }), sdk(threadId, { type: 'message_start', message: assistant })]);
  for (let i = 0; i < DELTAS_PER_THREAD; i++) for (const threadId of threadIds) frames.push(delta(threadId, i));
  return frames;
}

/** Sends every frame on one intake socket, the last as a request, and waits for its answer (stored). */
async function throughIntake(url: string, frames: unknown[]): Promise<number> {
  const socket = new WebSocket(`${url.replace('http', 'ws')}/api/v1/intake`, { headers: { authorization: `Bearer ${TOKEN}` } });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const started = performance.now();
  const answered = new Promise<void>((resolve, reject) =>
    socket.on('message', (data) => {
      const answer = JSON.parse(data.toString());
      if (answer.error) reject(new Error(JSON.stringify(answer.error)));
      if (answer.id === 'last') resolve();
    }),
  );
  frames.forEach((frame, i) => socket.send(JSON.stringify(i === frames.length - 1 ? { ...(frame as object), id: 'last' } : frame)));
  await answered;
  const seconds = (performance.now() - started) / 1000;
  socket.close();
  return frames.length / seconds;
}

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}

async function until(probe: () => Promise<boolean> | boolean): Promise<void> {
  while (!(await probe())) await new Promise((resolve) => setTimeout(resolve, 2));
}

async function main() {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-hosts-'));
  const folder = await mkdtemp(path.join(os.tmpdir(), 'bench-hosts-root-'));
  const quiet = () => {};
  const server = await startServer({ config: configWith({ port: 0, token: TOKEN, dataDir, agentProviders: 'none', hostCommandTimeoutMs: 120_000 }), log: quiet });
  // The in-process daemon dials the server's own /api/v1/daemon through a pass-through TCP hop the backlog
  // phase can cut, like a network would.
  let cut = false;
  const sockets = new Set<net.Socket>();
  const proxy = net.createServer((client) => {
    if (cut) return client.destroy();
    const upstream = net.connect(server.port, '127.0.0.1');
    // Like ws itself, no Nagle: a hop that delays small writes would measure TCP, not the link.
    for (const socket of [client, upstream]) sockets.add(socket.setNoDelay(true).on('close', () => sockets.delete(socket)).on('error', () => undefined));
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));

  const daemonDir = await mkdtemp(path.join(os.tmpdir(), 'bench-hosts-daemon-'));
  const config = DaemonConfigSchema.parse({ server: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, token: TOKEN, dataDir: daemonDir, agentProviders: 'none' });
  const remote = await startRemoteDaemon({ config, log: quiet });
  await until(() => server.hosts.isOnline(remote.hostId));

  const api = async (pathname: string, body: unknown) => {
    const response = await fetch(`${server.url}/api/v1${pathname}`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!response.ok) throw new Error(`${pathname}: ${response.status} ${await response.text()}`);
    return (await response.json()) as { id: string };
  };
  const projectOn = async (hostId: string) => (await api('/projects', { name: hostId, source: { type: 'local_path', path: folder, hostId } })).id;
  // The same daemon CLI a person runs, with its own CPU (the machine has two cores).
  const processDir = await mkdtemp(path.join(os.tmpdir(), 'bench-hosts-process-'));
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', path.join(__dirname, '..', 'src', 'cli', 'daemon.ts'), '--server', server.url, '--token', TOKEN, '--data-dir', processDir, '--agent-providers', 'none'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const processHostId = await new Promise<string>((resolve) => child.stdout.on('data', (chunk: Buffer) => /daemon (host_\w+)/.exec(chunk.toString()) && resolve(/daemon (host_\w+)/.exec(chunk.toString())![1]!)));
  await until(() => server.hosts.isOnline(processHostId));
  const projects = { embedded: await projectOn(server.hostId), remote: await projectOn(remote.hostId), process: await projectOn(processHostId) };
  const threads = async (projectId: string, count: number) =>
    Promise.all(Array.from({ length: count }, async () => (await api('/threads', { projectId, provider: 'pi', model: 'fake/model', title: 'bench' })).id));

  console.log(`workload: ${THREADS} threads × (${DELTAS_PER_THREAD} deltas + 2) = ${THREADS * (DELTAS_PER_THREAD + 2)} frames through the intake, one socket`);
  await throughIntake(server.url, workload(await threads(projects.embedded, 2))); // JIT warm-up, not reported
  await throughIntake(server.url, workload(await threads(projects.remote, 2)));
  await throughIntake(server.url, workload(await threads(projects.process, 2)));
  const targets = ['embedded', 'remote', 'process'] as const;
  const rates = { embedded: [] as number[], remote: [] as number[], process: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < targets.length; i++) {
      const target = targets[(round + i) % targets.length]!;
      rates[target].push(await throughIntake(server.url, workload(await threads(projects[target], THREADS))));
    }
  }
  const embedded = median(rates.embedded);
  console.log(`embedded daemon: ${Math.round(embedded)} frames/s (median of ${ROUNDS} rounds, targets rotating)`);
  for (const [target, label] of [['remote', 'remote daemon in this process'], ['process', 'remote daemon in its own process']] as const) {
    const rate = median(rates[target]);
    console.log(`${label}: ${Math.round(rate)} frames/s → ratio remote/embedded ${(rate / embedded).toFixed(2)}x (goal >= 0.7x)`);
  }

  // Backlog: the link is cut while a running turn keeps producing events inside the daemon.
  const [backlogThread] = await threads(projects.remote, 1);
  await throughIntake(server.url, [sdk(backlogThread!, { type: 'agent_start' }), sdk(backlogThread!, { type: 'message_start', message: assistant })]);
  const before = await server.store.lastSeq(backlogThread!);
  cut = true;
  sockets.forEach((socket) => socket.destroy());
  await until(() => !server.hosts.isOnline(remote.hostId));
  const produced = Array.from({ length: BACKLOG_EVENTS }, (_, i) =>
    remote.daemon.dispatch({ jsonrpc: '2.0', id: i, method: 'thread.ingest', params: { frame: delta(backlogThread!, i) } }),
  );
  await new Promise((resolve) => setTimeout(resolve, 500)); // let the pipeline take every frame in
  const restoredAt = performance.now();
  cut = false;
  await until(() => server.hosts.isOnline(remote.hostId));
  const linkedAt = performance.now();
  // Every ingest is answered only once its rows are stored on the server: that is "caught up".
  await Promise.all(produced);
  const caughtUpAt = performance.now();
  if ((await server.store.lastSeq(backlogThread!)) < before + BACKLOG_EVENTS) throw new Error('backlog not stored');
  const catchUpMs = caughtUpAt - linkedAt;
  console.log(
    `backlog of ${BACKLOG_EVENTS} events: link back ${Math.round(linkedAt - restoredAt)} ms after the network (reconnect backoff), ` +
      `caught up ${Math.round(catchUpMs)} ms later (${Math.round(BACKLOG_EVENTS / (catchUpMs / 1000))} events/s; ` +
      `embedded ingest of the same count takes ~${Math.round((BACKLOG_EVENTS / embedded) * 1000)} ms)`,
  );

  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  await remote.close();
  await new Promise((resolve) => proxy.close(resolve));
  await server.close();
  await Promise.all([dataDir, folder, daemonDir, processDir].map((dir) => rm(dir, { recursive: true, force: true })));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
