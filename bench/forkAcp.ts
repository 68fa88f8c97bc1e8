/**
 * npm run bench:fork-acp — what a fork of a real ACP agent's thread costs when the agent forks its own session
 * (`session/fork`, issue 39, docs/fork.md). Per agent (BENCH_FORK_AGENTS, default `claude,codex`; installed with
 * npm run agents:install), offline against its fake model API: a thread of two turns, then `BENCH_FORK_RUNS`
 * (default 5) rounds, alternated, of `POST /threads/:id/fork` into the checkout at the last turn and at the
 * first, each answered with the fork's view once the agent forked the session. The baseline, in the same run:
 * the agent's own start to its `initialize` answer and its close (what any fork of that agent pays before it
 * asks anything). A fork told the conversation starts no agent: `bench:fork` measures that path.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { BUILT_IN_ACP_AGENTS, createAcpProvider } from '../src/daemon/providers/acp';
import { withBriefAgent } from '../src/daemon/providers/acp/briefAgent';
import { initializeAgent } from '../src/daemon/providers/acp/initializeAgent';
import { loadAcpSdk } from '../src/daemon/providers/acp/loadAcpSdk';
import { ARGS_OF, testAgentBin, TEST_AGENTS_BIN, type TestAgent } from '../test/helpers/agents/acpAgents';
import { REAL_AGENTS } from '../test/helpers/agents/realAgents';
import { initRepo } from '../test/helpers/git/gitRepo';
import { startTestServer } from '../test/helpers/server/harness';
import { completedTurns, eventsUntil } from '../test/helpers/server/threadRows';

const AGENTS = (process.env.BENCH_FORK_AGENTS ?? 'claude,codex').split(',') as TestAgent[];
const RUNS = Number(process.env.BENCH_FORK_RUNS ?? 5);
const SCRIPTS = {
  'Change the greeting': [{ kind: 'text' as const, chunks: ['Changed.'] }],
  'Write the greeting': [{ kind: 'text' as const, chunks: ['Written.'] }],
};

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (values: number[]) => `${values.map((v) => v.toFixed(0)).join(', ')} (median ${median(values).toFixed(0)})`;
async function timed<T>(work: () => Promise<T>): Promise<[number, T]> {
  const start = performance.now();
  const value = await work();
  return [performance.now() - start, value];
}

async function benchAgent(agent: TestAgent, root: string): Promise<void> {
  const home = path.join(root, agent, 'home');
  const checkout = path.join(root, agent, 'project');
  await mkdir(checkout, { recursive: true });
  initRepo(checkout, { 'README.md': '# demo\n' });
  const model = await REAL_AGENTS[agent].startModel(SCRIPTS);
  const env = REAL_AGENTS[agent].envOf(home, model.origin);
  const provider = createAcpProvider({
    name: agent,
    spec: BUILT_IN_ACP_AGENTS[agent],
    env,
    binDirs: [TEST_AGENTS_BIN],
    log: () => undefined,
  });
  const t = await startTestServer({ providers: [provider] });
  try {
    const project = await t.json('/projects', {
      body: { name: 'demo', source: { type: 'local_path', path: checkout, hostId: t.server.hostId } },
    });
    const source = await t.json('/threads', {
      body: { projectId: project.id, provider: agent, model: `${agent}/default`, title: 'Greeting', prompt: 'Write the greeting' },
    });
    await eventsUntil(t, source.id, completedTurns(1));
    await t.json(`/threads/${source.id}/messages`, { body: { prompt: 'Change the greeting' } });
    const [first] = (await eventsUntil(t, source.id, completedTurns(2))).filter((row) => row.type === 'turn/completed');
    const sdk = await loadAcpSdk();
    const startMs: number[] = [];
    const atEndMs: number[] = [];
    const atFirstMs: number[] = [];
    const fork = async (body: Record<string, unknown>) => {
      const [took, forked] = await timed(() => t.json(`/threads/${source.id}/fork`, { body: { ...body, workspace: 'checkout' } }));
      if (!forked.providerThreadId || forked.providerThreadId === forked.id) throw new Error(`${agent} did not fork its session`);
      return took;
    };
    for (let run = 0; run < RUNS; run++) {
      const brief = { sdk, executable: testAgentBin(agent), args: ARGS_OF[agent], env, cwd: checkout, timeoutMs: 60_000, what: 'start' };
      startMs.push((await timed(() => withBriefAgent(brief, (process) => initializeAgent(sdk, process.connection))))[0]);
      atEndMs.push(await fork({}));
      atFirstMs.push(await fork({ turnId: first!.turnId }));
    }
    console.log(`${agent}: fork at the last turn, POST → view ms: ${ms(atEndMs)}`);
    console.log(`${agent}: fork at the first turn, POST → view ms: ${ms(atFirstMs)}`);
    console.log(`${agent}:   the agent's start to its initialize answer (and its close) ms: ${ms(startMs)}`);
    console.log(
      `${agent}:   ratio fork / agent start: ${(median(atEndMs) / median(startMs)).toFixed(2)}× at the end, ${(median(atFirstMs) / median(startMs)).toFixed(2)}× at the first`,
    );
  } finally {
    await t.close();
    await model.close();
  }
}

async function main(): Promise<void> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'ats-bench-fork-acp-'));
  console.log(
    `load average ${os
      .loadavg()
      .map((load) => load.toFixed(1))
      .join(' ')}; ${RUNS} runs per fork`,
  );
  try {
    for (const agent of AGENTS) await benchAgent(agent, root);
  } catch (error) {
    console.error(error);
    process.exitCode = 1;
  } finally {
    // An agent's processes may still write into its HOME while their group ends.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await rm(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
}

void main();
