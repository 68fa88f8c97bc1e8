/**
 * npm run bench:threads — what agents on demand buy (issue 28), against the goals, in one run:
 * 1,000 threads on the embedded host (200 with 1,000 stored rows each) and a restart: hello → online, agent
 * processes started, service + agents RSS; `POST /threads` (no prompt) p50/p99 over HTTP; the first prompt
 * on a thread whose agent is stopped → its first stored row (pi against the fake model server); 50 threads
 * prompted once, then idle past `agentIdleMs` → agent processes and RSS back; then, with the service stopped, the
 * phases of a first prompt measured one by one (bench/lib/firstPromptPhases.ts). Agents are isolated pi
 * processes of the service run as `npm start` runs it (built JS, its own process, so its RSS is the service's). `BENCH_IDLE_MS` (default 3000) is the idle time used.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { from, lastValueFrom, mergeMap, toArray } from 'rxjs';
import { configWith } from '../src/config/serverConfig';
import { startServer } from '../src/server/startServer';
import type { NewThreadEvent } from '../src/store/eventStore';
import { scriptByPrompt, startFakeModelServer } from '../test/helpers/fakes/modelServer';
import { createPiSandbox, FAKE_MODEL } from '../test/providers/pi/piSandbox';
import { measureFirstPromptPhases } from './lib/firstPromptPhases';
import { rssMb, treeRssMb } from './lib/processRss';

const THREADS = Number(process.env.BENCH_THREADS ?? 1000);
const THREADS_WITH_ROWS = Math.min(200, THREADS / 5);
const ROWS_EACH = 1000;
const KEPT_RUNNING = 2;
const FIRST_PROMPTS = 3;
const PROMPTED = Math.min(50, THREADS - THREADS_WITH_ROWS - FIRST_PROMPTS - KEPT_RUNNING);
const PROMPT_CONCURRENCY = 5;
const IDLE_MS = Number(process.env.BENCH_IDLE_MS ?? 3000);
const TOKEN = 'bench-token-0123456789abcdef';
const REPO = path.resolve(__dirname, '..');

/** The processes whose parent is `pid`, from /proc (no child process of its own, which could fail under load). */
const children = (pid = process.pid): number[] =>
  readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false; // ended meanwhile
      }
    })
    .map(Number);
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until<T>(probe: () => Promise<T | undefined> | T | undefined, what: string, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await pause(5);
  }
}
const row = (label: string, figure: string, goal: string) => console.log(`${label.padEnd(58)} ${figure.padEnd(22)} goal ${goal}`);

/** The service as `npm start` runs it (built JS, isolated pi agents), in its own process: its RSS is the service's. */
async function startService(dataDir: string, agentDir: string): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [path.join(REPO, 'dist/node/src/cli/start.js'), '--port', '0', '--data-dir', dataDir], {
    cwd: REPO,
    env: {
      ...process.env,
      ATS_TOKEN: TOKEN,
      ATS_AGENT_IDLE_MS: String(IDLE_MS),
      // Fifty agents starting on a shared 2-core machine take longer than the default 15 s command timeout.
      ATS_HOST_COMMAND_TIMEOUT_MS: '120000',
      PI_CODING_AGENT_DIR: agentDir,
    },
    stdio: ['ignore', 'pipe', process.env.BENCH_LOG ? 'inherit' : 'ignore'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.stdout!.on('data', (chunk) => {
      text += chunk;
      const match = /^listening on (\S+)$/m.exec(text);
      if (match) resolve(match[1]!);
    });
    void exited.then(() => reject(new Error('the service exited before listening')));
  });
  child.stdout!.resume();
  return {
    url,
    pid: child.pid!,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function main(): Promise<void> {
  execFileSync(process.execPath, [path.join(REPO, 'src/build/ensureBuilt.mjs')], { cwd: REPO, stdio: 'inherit' });
  const model = await startFakeModelServer(scriptByPrompt({ 'Say hello': [{ kind: 'text', chunks: ['Hello ', 'there.'] }] }));
  const sandbox = createPiSandbox({ baseUrl: model.baseUrl });
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'ats-bench-threads-'));
  const api = (url: string) => async (pathname: string, body?: unknown) => {
    const response = await fetch(`${url}/api/v1${pathname}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok) throw new Error(`${pathname}: ${response.status} ${await response.text()}`);
    return response.json() as Promise<any>;
  };

  try {
    // 1. A thousand threads, made over HTTP: the POST /threads figures.
    let service = await startService(dataDir, sandbox.agentDir);
    let call = api(service.url);
    const hostId = (await call('/hosts'))[0].id as string;
    const project = await call('/projects', { name: 'bench', source: { type: 'local_path', path: sandbox.projectDir, hostId } });
    const creates: number[] = [];
    const ids: string[] = [];
    for (let i = 0; i < THREADS; i++) {
      const started = performance.now();
      ids.push((await call('/threads', { projectId: project.id, provider: 'pi', model: FAKE_MODEL, title: `t${i}` })).id);
      creates.push(performance.now() - started);
    }
    await service.stop();

    // Rows and the kept-running flags are written straight into the stopped service's data dir.
    const writer = await startServer({
      config: configWith({ port: 0, token: TOKEN, dataDir, embeddedHost: '0' }),
      providers: [],
      log: () => {},
    });
    for (const id of ids.slice(0, THREADS_WITH_ROWS)) {
      const rows: NewThreadEvent[] = Array.from({ length: ROWS_EACH }, (_, i) => ({
        threadId: id,
        type: 'item/agentMessage/delta',
        turnId: 'turn-1',
        scope: { kind: 'turn', turnId: 'turn-1' },
        data: { providerThreadId: id, itemId: 'item-1', delta: `word${i} ` },
      }));
      await lastValueFrom(from(writer.store.append(rows)));
    }
    for (const id of ids.slice(-KEPT_RUNNING)) {
      await writer.registry.threads.put({ ...(await writer.registry.threads.get(id))!, keepAgentRunning: true });
    }
    await writer.close();

    // 2. The restart: hello → online, and what the hello starts.
    const beforeStart = performance.now();
    service = await startService(dataDir, sandbox.agentDir);
    call = api(service.url);
    await until(async () => ((await call(`/hosts/${hostId}`)).online ? true : undefined), 'the host online');
    const onlineMs = performance.now() - beforeStart;
    const agentProcesses = () => children(service.pid).length;
    await until(() => (agentProcesses() >= KEPT_RUNNING ? true : undefined), 'the kept-running agents');
    await pause(2000);
    const helloAgents = agentProcesses();
    const helloRss = treeRssMb(service.pid);
    const serviceRss = rssMb(service.pid);

    // 3. The first prompt on a stopped agent → its first stored row, on threads never started (one at a time).
    const bundle = path.join(REPO, 'dist/node/agents/pi-agent.mjs');
    const rowsOf = async (id: string) => ((await call(`/threads/${id}/events`)) as unknown[]).length;
    const firstRows: number[] = [];
    for (const lazy of ids.slice(THREADS_WITH_ROWS, THREADS_WITH_ROWS + FIRST_PROMPTS)) {
      const before = await rowsOf(lazy);
      const promptedAt = performance.now();
      await call(`/threads/${lazy}/messages`, { prompt: 'Say hello' });
      await until(async () => ((await rowsOf(lazy)) > before ? true : undefined), 'the first row');
      firstRows.push(performance.now() - promptedAt);
      await until(async () => ((await call(`/threads/${lazy}`)).status === 'idle' ? true : undefined), 'the first turn');
    }
    const firstRowMs = percentile(firstRows, 50);

    // 4. Fifty threads prompted once, then idle past the idle time.
    await until(() => (agentProcesses() <= KEPT_RUNNING ? true : undefined), 'the first agents closed');
    await pause(1000);
    const idleRss = treeRssMb(service.pid);
    const batch = ids.slice(THREADS_WITH_ROWS + FIRST_PROMPTS, THREADS_WITH_ROWS + FIRST_PROMPTS + PROMPTED);
    // A few at a time, as users would: fifty agent processes starting at once only measure the CPU.
    await lastValueFrom(
      from(batch).pipe(
        mergeMap((id) => call(`/threads/${id}/messages`, { prompt: 'Say hello' }), PROMPT_CONCURRENCY),
        toArray(),
      ),
    );
    for (const id of batch) await until(async () => ((await call(`/threads/${id}`)).status === 'idle' ? true : undefined), 'the turns');
    const busyAgents = agentProcesses();
    const busyRss = treeRssMb(service.pid);
    const closedAt = performance.now();
    await until(() => (agentProcesses() <= KEPT_RUNNING ? true : undefined), 'the idle closes', IDLE_MS * 20 + 60_000);
    const closeMs = performance.now() - closedAt;
    await pause(2000);
    const afterRss = treeRssMb(service.pid);
    const afterAgents = agentProcesses();
    if (process.env.BENCH_LOG) console.log(execFileSync('ps', ['-o', 'pid,ppid,rss,args', '--ppid', String(service.pid)]).toString());
    await service.stop();

    console.log(
      `bench:threads — ${THREADS} threads (${THREADS_WITH_ROWS} × ${ROWS_EACH} rows), \`npm start\`'s service with isolated pi, agentIdleMs ${IDLE_MS}`,
    );
    row('hello → online after the restart (process start included)', `${onlineMs.toFixed(0)} ms`, '≤ 2000 ms');
    row(`agent processes after the hello (${KEPT_RUNNING} kept running)`, String(helloAgents), `${KEPT_RUNNING} (kept-running only)`);
    row(`service + agents RSS after the hello (${KEPT_RUNNING} kept agents)`, `${helloRss.toFixed(0)} MB`, '≤ 400 MB');
    row('… of which the service process', `${serviceRss.toFixed(0)} MB`, '');
    row(
      'POST /threads (no prompt) p50 / p99 over HTTP',
      `${percentile(creates, 50).toFixed(1)} / ${percentile(creates, 99).toFixed(1)} ms`,
      '≤ 50 / ≤ 200 ms',
    );
    row(`first prompt on a stopped pi agent → first stored row (median of ${FIRST_PROMPTS})`, `${firstRowMs.toFixed(0)} ms`, '≤ 2000 ms');
    console.log(
      `  (each: ${firstRows.map((ms) => ms.toFixed(0)).join(', ')} ms; the agent process runs ${existsSync(bundle) ? 'the bundle' : 'unbundled'})`,
    );
    row(`${PROMPTED} threads prompted once: agent processes, RSS`, `${busyAgents}, ${busyRss.toFixed(0)} MB`, '(while they run)');
    row(
      `… idle past ${IDLE_MS} ms: agent processes (after ${(closeMs / 1000).toFixed(1)} s)`,
      String(afterAgents),
      `${KEPT_RUNNING} (the kept-running)`,
    );
    row('… RSS then, against the idle service', `${afterRss.toFixed(0)} vs ${idleRss.toFixed(0)} MB`, 'within 50 MB');

    // 5. Where a first prompt's time goes, each phase on its own, with the service stopped.
    const phases = await measureFirstPromptPhases(sandbox, existsSync(bundle) ? bundle : undefined);
    console.log('first prompt on a stopped pi agent, its phases measured one by one (medians of 3):');
    row('  a Node process start (node -e 0)', `${phases.nodeStartMs.toFixed(0)} ms`, '');
    row('  importing pi-coding-agent from node_modules, alone', `${phases.sdkImportMs.toFixed(0)} ms`, '');
    row('  agent process fork → thread open (as the service runs it)', `${phases.openMs.toFixed(0)} ms`, '');
    row(
      '  … unbundled agent (agentProcessMain), the baseline',
      `${phases.plainOpenMs.toFixed(0)} ms (${(phases.openMs / phases.plainOpenMs).toFixed(2)}×)`,
      '',
    );
    row('  prompt → first frame (pi/prompt/started)', `${phases.firstFrameMs.toFixed(0)} ms`, '');
    row(
      "  the service's share (first row − open − first frame)",
      `${(firstRowMs - phases.openMs - phases.firstFrameMs).toFixed(0)} ms`,
      '',
    );
  } finally {
    await model.close();
    sandbox.remove();
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
