/**
 * npm run bench:hosts — (1) intake ingest into threads whose host is a remote daemon on the WebSocket link
 * against threads of the embedded daemon, same server, same run, as a ratio (goal >= 0.7x), for a remote
 * daemon in this process (worst case: its pipeline shares the CPU with the server, every batch is serialised
 * both ways) and for one in a process of its own (`src/cli/daemon.ts`, as deployed); (2) the time a remote
 * daemon needs after its link returns to get a backlog of 10k events, produced while it was cut off, into
 * the server's store. Sizes are named below; a run takes ~30 s.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { configWith } from '../src/config/serverConfig';
import { DaemonConfigSchema } from '../src/config/daemonConfig';
import { startRemoteDaemon } from '../src/daemon/remote/startRemoteDaemon';
import { startServer } from '../src/server/startServer';

const TOKEN = 'bench-token-0123456789abcdef';
const THREADS = 20;
const DELTAS_PER_THREAD = Number(process.env.BENCH_DELTAS ?? 400);
/** Rounds run every target once, in rotating order (the machine is shared); each round's ratios are compared. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const BACKLOG_EVENTS = 10_000;

const sdk = (threadId: string, message: unknown, id?: number) => ({
  jsonrpc: '2.0',
  method: 'sdk/message',
  params: { threadId, message },
  ...(id === undefined ? {} : { id }),
});
const assistant = { role: 'assistant', content: [], api: 'fake', provider: 'fake', model: 'fake', stopReason: 'stop', timestamp: 1 };
const delta = (threadId: string, i: number, id?: number) =>
  sdk(
    threadId,
    { type: 'message_update', message: assistant, assistantMessageEvent: { type: 'text_delta', contentIndex: 0, delta: `word${i} ` } },
    id,
  );

/** Every thread's turn opens, then deltas interleave thread by thread as concurrent runs would send them. */
function workload(threadIds: string[]): unknown[] {
  const frames: unknown[] = threadIds.flatMap((threadId) => [
    sdk(threadId, { type: 'agent_start' }),
    sdk(threadId, { type: 'message_start', message: assistant }),
  ]);
  for (let i = 0; i < DELTAS_PER_THREAD; i++) for (const threadId of threadIds) frames.push(delta(threadId, i));
  return frames;
}

/**
 * Sends every frame on one intake socket, the last as a request, and waits for its answer (stored). Answers
 * frames/s, and this process's CPU time per frame over the same span (for a daemon in its own process: the
 * server's share only).
 */
async function throughIntake(url: string, frames: unknown[]): Promise<{ rate: number; cpuMicros: number }> {
  const socket = new WebSocket(`${url.replace('http', 'ws')}/api/v1/intake`, { headers: { authorization: `Bearer ${TOKEN}` } });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
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
  const cpu = process.cpuUsage(cpuBefore);
  socket.close();
  return { rate: frames.length / seconds, cpuMicros: (cpu.user + cpu.system) / frames.length };
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
  const server = await startServer({
    config: configWith({ port: 0, token: TOKEN, dataDir, agentProviders: 'none', hostCommandTimeoutMs: 120_000 }),
    log: quiet,
  });
  // The in-process daemon dials the server's own /api/v1/daemon through a pass-through TCP hop the backlog
  // phase can cut, like a network would.
  let cut = false;
  const sockets = new Set<net.Socket>();
  const proxy = net.createServer((client) => {
    if (cut) return client.destroy();
    const upstream = net.connect(server.port, '127.0.0.1');
    // Like ws itself, no Nagle: a hop that delays small writes would measure TCP, not the link.
    for (const socket of [client, upstream])
      sockets.add(
        socket
          .setNoDelay(true)
          .on('close', () => sockets.delete(socket))
          .on('error', () => undefined),
      );
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));

  const daemonDir = await mkdtemp(path.join(os.tmpdir(), 'bench-hosts-daemon-'));
  const config = DaemonConfigSchema.parse({
    server: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    token: TOKEN,
    dataDir: daemonDir,
    agentProviders: 'none',
  });
  const remote = await startRemoteDaemon({ config, log: quiet });
  await until(() => server.hosts.isOnline(remote.hostId));

  const api = async (pathname: string, body: unknown) => {
    const response = await fetch(`${server.url}/api/v1${pathname}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${pathname}: ${response.status} ${await response.text()}`);
    return (await response.json()) as { id: string };
  };
  const projectOn = async (hostId: string) =>
    (await api('/projects', { name: hostId, source: { type: 'local_path', path: folder, hostId } })).id;
  // The same daemon CLI a person runs, with its own CPU (the machine has two cores).
  const processDir = await mkdtemp(path.join(os.tmpdir(), 'bench-hosts-process-'));
  const child = spawn(
    process.execPath,
    [
      '-r',
      'ts-node/register/transpile-only',
      path.join(__dirname, '..', 'src', 'cli', 'daemon.ts'),
      '--server',
      server.url,
      '--token',
      TOKEN,
      '--data-dir',
      processDir,
      '--agent-providers',
      'none',
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  // A bench that fails half-way must not leave this daemon redialling a server that is gone.
  process.once('exit', () => child.kill('SIGKILL'));
  const processHostId = await new Promise<string>((resolve) =>
    child.stdout.on(
      'data',
      (chunk: Buffer) => /daemon (host_\w+)/.exec(chunk.toString()) && resolve(/daemon (host_\w+)/.exec(chunk.toString())![1]!),
    ),
  );
  await until(() => server.hosts.isOnline(processHostId));
  const projects = {
    embedded: await projectOn(server.hostId),
    remote: await projectOn(remote.hostId),
    process: await projectOn(processHostId),
  };
  const threads = async (projectId: string, count: number) =>
    Promise.all(
      Array.from(
        { length: count },
        async () => (await api('/threads', { projectId, provider: 'pi', model: 'fake/model', title: 'bench' })).id,
      ),
    );

  console.log(
    `workload: ${THREADS} threads × (${DELTAS_PER_THREAD} deltas + 2) = ${THREADS * (DELTAS_PER_THREAD + 2)} frames through the intake, one socket`,
  );
  const targets = ['embedded', 'remote', 'process'] as const;
  // Warm-up at full size, not reported: the first rounds of a fresh process run 2x slower while the JIT
  // settles, and a smaller warm-up left that on whichever target the first round measured first.
  for (const target of targets) await throughIntake(server.url, workload(await threads(projects[target], THREADS)));
  const rates = { embedded: [] as number[], remote: [] as number[], process: [] as number[] };
  const cpus = { embedded: [] as number[], remote: [] as number[], process: [] as number[] };
  const ratios = { remote: [] as number[], process: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    // The order rotates so no target always runs right after another's GC debt or a slow minute.
    for (let i = 0; i < targets.length; i++) {
      const target = targets[(round + i) % targets.length]!;
      const { rate, cpuMicros } = await throughIntake(server.url, workload(await threads(projects[target], THREADS)));
      rates[target].push(rate);
      cpus[target].push(cpuMicros);
    }
    // Speed varies minute to minute on a shared VM: a round's targets ran seconds apart, so each round's own
    // ratio is the fair comparison, and their median the result.
    ratios.remote.push(rates.remote[round]! / rates.embedded[round]!);
    ratios.process.push(rates.process[round]! / rates.embedded[round]!);
    const cpu = (target: keyof typeof cpus) => `${Math.round(cpus[target][round]!)} µs cpu/frame`;
    console.log(
      `round ${round + 1}/${ROUNDS}: embedded ${Math.round(rates.embedded[round]!)} frames/s (${cpu('embedded')}), ` +
        `remote in this process ${Math.round(rates.remote[round]!)} (${cpu('remote')}) ${ratios.remote[round]!.toFixed(2)}x, ` +
        `remote in its own process ${Math.round(rates.process[round]!)} (server ${cpu('process')}) ${ratios.process[round]!.toFixed(2)}x`,
    );
  }
  console.log(
    `embedded daemon: ${Math.round(median(rates.embedded))} frames/s, ${Math.round(median(cpus.embedded))} µs cpu/frame (medians of ${ROUNDS} rounds, targets rotating)`,
  );
  for (const [target, label] of [
    ['remote', 'remote daemon in this process'],
    ['process', 'remote daemon in its own process'],
  ] as const) {
    const spread = `${Math.min(...ratios[target]).toFixed(2)}–${Math.max(...ratios[target]).toFixed(2)}`;
    console.log(
      `${label}: ${Math.round(median(rates[target]))} frames/s → ratio remote/embedded ${median(ratios[target]).toFixed(2)}x (median of the rounds' ratios, ${spread}; goal >= 0.7x)`,
    );
  }
  // CPU time varies less than wall time on a shared VM; for the daemon in its own process only the server's
  // share is counted here, so its figure says how much of the server a remote frame takes.
  const cpuRatio = (target: 'remote' | 'process') => median(cpus[target].map((micros, round) => micros / cpus.embedded[round]!)).toFixed(2);
  console.log(
    `cpu per frame in this process, remote/embedded: ${cpuRatio('remote')}x with the daemon in this process, ${cpuRatio('process')}x (server side only) with it in its own`,
  );

  // Backlog: the link is cut while a running turn keeps producing events inside the daemon.
  const [backlogThread] = await threads(projects.remote, 1);
  await throughIntake(server.url, [
    sdk(backlogThread!, { type: 'agent_start' }),
    sdk(backlogThread!, { type: 'message_start', message: assistant }),
  ]);
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
      `embedded ingest of the same count takes ~${Math.round((BACKLOG_EVENTS / median(rates.embedded)) * 1000)} ms)`,
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
  // Servers and links still open would keep the process alive after the failure.
  process.exit(1);
});
