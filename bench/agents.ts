/**
 * npm run bench:agents — what isolating each thread's agent in a process of its own costs (issue 12): RSS of
 * 10 idle threads, and time to first token (prompt() → first text delta) for a thread opened just before
 * (cold: opening included) and for open threads (warm), in-process pi against the isolated provider, each in
 * a fresh Node process of its own so neither inherits the other's loaded SDK; ratios from the same run.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { performance } from 'node:perf_hooks';
import { createIsolatedPiProvider } from '../src/daemon/providerFactories';
import type { AgentProvider, AgentThread } from '../src/daemon/providers/agentProvider';
import { createPiProvider } from '../src/daemon/providers/pi';
import { scriptByPrompt, startFakeModelServer } from '../test/helpers/fakes/modelServer';
import { createFrameLog, isMethod, type Frame } from '../test/providers/pi/frameLog';
import { createPiSandbox, FAKE_MODEL } from '../test/providers/pi/piSandbox';
import { treeRssMb } from './lib/processRss';

const IDLE_THREADS = 10;
const WARM_PROMPTS = Number(process.env.BENCH_PROMPTS ?? 20);
const MODES = ['in-process', 'isolated'] as const;
type Mode = (typeof MODES)[number];

interface Measured {
  baseRssMb: number;
  idleRssMb: number;
  coldTtftMs: number;
  /** Prompts spread over the 10 threads: in isolation each agent process runs (and JIT-warms) only its own. */
  spreadTtftMs: number;
  /** Prompts to one thread after another: the same agent every time. */
  sameThreadTtftMs: number;
}

const isTextDelta = (frame: Frame) => frame.method === 'sdk/message' && frame.params.message?.assistantMessageEvent?.type === 'text_delta';

async function measure(mode: Mode, env: { baseUrl: string }): Promise<Measured> {
  const sandbox = createPiSandbox({ baseUrl: env.baseUrl });
  const baseRssMb = treeRssMb();
  const provider: AgentProvider =
    mode === 'in-process'
      ? createPiProvider({ agentDir: sandbox.agentDir, log: () => undefined })
      : createIsolatedPiProvider({ agentDir: sandbox.agentDir }, () => undefined);
  const threads: Array<{ thread: AgentThread; frames: ReturnType<typeof createFrameLog> }> = [];
  const open = async (i: number) => {
    const frames = createFrameLog();
    const thread = await provider.openThread({
      threadId: `thr_bench_${i}`,
      cwd: sandbox.projectDir,
      model: FAKE_MODEL,
      dataDir: sandbox.dataDir,
      emit: frames.emit,
    });
    threads.push({ thread, frames });
    return threads.at(-1)!;
  };
  const firstToken = async (entry: (typeof threads)[number]) => {
    const seen = entry.frames.frames.length;
    const started = performance.now();
    await entry.thread.prompt('Say hello');
    await entry.frames.waitFor((frame) => entry.frames.frames.indexOf(frame) >= seen && isTextDelta(frame));
    const elapsed = performance.now() - started;
    await entry.frames.waitFor((frame) => entry.frames.frames.indexOf(frame) >= seen && isMethod('pi/prompt/settled')(frame));
    return elapsed;
  };
  try {
    const coldStart = performance.now();
    await firstToken(await open(0));
    const coldTtftMs = performance.now() - coldStart;
    for (let i = 1; i < IDLE_THREADS; i++) await open(i);
    await new Promise((resolve) => setTimeout(resolve, 1000)); // let start-up garbage go
    const idleRssMb = treeRssMb();
    const median = async (pick: (i: number) => (typeof threads)[number]) => {
      const times: number[] = [];
      for (let i = 0; i < WARM_PROMPTS; i++) times.push(await firstToken(pick(i)));
      return times.sort((x, y) => x - y)[Math.floor(times.length / 2)]!;
    };
    const spreadTtftMs = await median((i) => threads[i % threads.length]!);
    const sameThreadTtftMs = await median(() => threads[0]!);
    return { baseRssMb, idleRssMb, coldTtftMs, spreadTtftMs, sameThreadTtftMs };
  } finally {
    await Promise.all(threads.map(({ thread }) => thread.dispose()));
    sandbox.remove();
  }
}

async function main(): Promise<void> {
  const [flag, mode, baseUrl] = process.argv.slice(2);
  if (flag === '--measure') {
    process.stdout.write(JSON.stringify(await measure(mode as Mode, { baseUrl: baseUrl! })) + '\n');
    process.exit(0);
  }
  const model = await startFakeModelServer(scriptByPrompt({ 'Say hello': [{ kind: 'text', chunks: ['Hello', ' there'] }] }));
  const results = {} as Record<Mode, Measured>;
  try {
    for (const each of MODES) {
      // A fresh process per mode; the model server stays in this one (whose event loop must stay free for it),
      // so it is in neither RSS.
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['-r', 'ts-node/register/transpile-only', __filename, '--measure', each, model.baseUrl],
        { encoding: 'utf8' },
      );
      results[each] = JSON.parse(stdout.trim().split('\n').pop()!) as Measured;
    }
  } finally {
    await model.close();
  }
  const a = results['in-process'];
  const b = results.isolated;
  const row = (what: string, x: number, y: number, unit: string) =>
    console.log(`${what.padEnd(42)} ${x.toFixed(0).padStart(7)} ${unit}  ${y.toFixed(0).padStart(7)} ${unit}  ${(y / x).toFixed(2)}x`);
  console.log(`${''.padEnd(42)} ${'in-process'.padStart(10)}  ${'isolated'.padStart(10)}  ratio`);
  row('RSS before any thread', a.baseRssMb, b.baseRssMb, 'MB');
  row(`RSS with ${IDLE_THREADS} idle threads (process tree)`, a.idleRssMb, b.idleRssMb, 'MB');
  row(`  per idle thread above the base`, (a.idleRssMb - a.baseRssMb) / IDLE_THREADS, (b.idleRssMb - b.baseRssMb) / IDLE_THREADS, 'MB');
  row('time to first token (TTFT), cold: open+prompt', a.coldTtftMs, b.coldTtftMs, 'ms');
  row(`TTFT, open threads, round robin (median)`, a.spreadTtftMs, b.spreadTtftMs, 'ms');
  row(`TTFT, one thread again and again (median)`, a.sameThreadTtftMs, b.sameThreadTtftMs, 'ms');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
