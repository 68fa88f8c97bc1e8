/**
 * npm run bench:fork — issue 39's goal: fork a 10,000-row thread at its middle turn in ≤ 500 ms to the new
 * thread's view (`POST /threads/:id/fork` answered), the source's rows unchanged. Against a real server
 * (embedded host, nedb store, the real git wing), the source a worktree thread of 100 turns × 100 rows
 * written straight into the store, its turn trees recorded as the daemon records them (refs under
 * `refs/ats/turns/`). Two forks are timed, alternated, `BENCH_FORK_RUNS` (default 5) times each: into a
 * worktree of its own (rows + `git.worktree_fork`) and into the checkout (rows only); beside them, in the same
 * run, the store's own work (read the 10,000 rows, append the 5,000 copied) and `git worktree add` of the tree.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { from, lastValueFrom } from 'rxjs';
import { configWith } from '../src/config/serverConfig';
import { startServer } from '../src/server/startServer';
import type { NewThreadEvent } from '../src/store/eventStore';

const TURNS = 100;
const ROWS_PER_TURN = 100;
const RUNS = Number(process.env.BENCH_FORK_RUNS ?? 5);
const GOAL_MS = 500;
const TOKEN = 'bench-token-0123456789abcdef';
const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Bench',
  GIT_AUTHOR_EMAIL: 'b@example.com',
  GIT_COMMITTER_NAME: 'Bench',
  GIT_COMMITTER_EMAIL: 'b@example.com',
};
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8' }).trim();
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const timed = async <T>(work: () => Promise<T>): Promise<[number, T]> => {
  const start = performance.now();
  const value = await work();
  return [performance.now() - start, value];
};

/** One turn as the pipeline writes it: 100 rows, a user message, an answer streamed in 93 deltas, usage after. */
function turnRows(threadId: string, turn: number): NewThreadEvent[] {
  const turnId = `turn-${String(turn).padStart(3, '0')}`;
  const scope = { kind: 'turn' as const, turnId };
  const row = (type: string, data: Record<string, unknown>) =>
    ({ threadId, type, turnId, scope, data: { providerThreadId: threadId, ...data } }) as NewThreadEvent;
  const user = { type: 'userMessage', id: `u${turn}`, content: [{ type: 'text', text: `Prompt number ${turn}` }] };
  const deltas = Array.from({ length: ROWS_PER_TURN - 7 }, (_, i) => `word${i} `);
  return [
    row('turn/started', { origin: 'client' }),
    row('item/started', { item: user }),
    row('item/completed', { item: user }),
    row('item/started', { item: { type: 'agentMessage', id: `a${turn}`, text: '' } }),
    ...deltas.map((delta) => row('item/agentMessage/delta', { itemId: `a${turn}`, delta })),
    row('item/completed', { item: { type: 'agentMessage', id: `a${turn}`, text: deltas.join('') } }),
    row('turn/completed', { status: 'completed', providerCheckpointId: turnId }),
    row('thread/contextWindowUsage/updated', {
      contextWindowUsage: { usedTokens: 100 * turn, modelContextWindow: 32_000, estimated: false },
    }),
  ];
}

async function main(): Promise<void> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'ats-bench-fork-'));
  const repo = path.join(root, 'repo');
  await mkdir(path.join(repo, 'src'), { recursive: true });
  for (let i = 0; i < 200; i++) await writeFile(path.join(repo, 'src', `file${i}.ts`), `export const value = ${i};\n`);
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'first');
  const server = await startServer({
    config: configWith({ port: 0, token: TOKEN, dataDir: path.join(root, 'data') }),
    log: () => undefined,
  });
  const api = async (pathname: string, body?: unknown) => {
    const response = await fetch(`${server.url}/api/v1${pathname}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${pathname} → ${response.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  try {
    const project = await api('/projects', { name: 'bench', source: { type: 'local_path', path: repo, hostId: server.hostId } });
    const source = await api('/threads', { projectId: project.id, provider: 'pi', model: 'm', title: 'big', workspace: 'worktree' });
    const rows = Array.from({ length: TURNS }, (_, turn) => turnRows(source.id, turn + 1)).flat();
    await lastValueFrom(from(server.store.append(rows)));
    // The trees the daemon would have recorded at each turn's edges: turn n adds one file to the worktree.
    for (let turn = 1; turn <= TURNS; turn++) {
      await writeFile(path.join(source.workspace.path, `turn-${turn}.txt`), `turn ${turn}\n`);
      const index = path.join(root, 'turn-index');
      const env = { ...GIT_ENV, GIT_INDEX_FILE: index };
      execFileSync('git', ['add', '--all'], { cwd: source.workspace.path, env });
      const tree = execFileSync('git', ['write-tree'], { cwd: source.workspace.path, env, encoding: 'utf8' }).trim();
      const base = `refs/ats/turns/${source.id}/${String(1_700_000_000_000 + turn).padStart(15, '0')}-turn-${String(turn).padStart(3, '0')}`;
      git(repo, 'update-ref', `${base}/start`, tree);
      git(repo, 'update-ref', `${base}/end`, tree);
    }
    const before = JSON.stringify(await server.store.list(source.id));
    const middle = `turn-${String(TURNS / 2).padStart(3, '0')}`;
    console.log(`source: ${rows.length} rows in ${TURNS} turns; forking at ${middle}, ${RUNS} runs each`);

    const worktreeMs: number[] = [];
    const checkoutMs: number[] = [];
    const storeMs: number[] = [];
    const gitMs: number[] = [];
    let forkedRows = 0;
    for (let run = 0; run < RUNS; run++) {
      const [inWorktree, forked] = await timed(() => api(`/threads/${source.id}/fork`, { turnId: middle }));
      worktreeMs.push(inWorktree);
      if (forked.workspace.state !== 'ready') throw new Error(`the fork is ${forked.workspace.state}`);
      checkoutMs.push((await timed(() => api(`/threads/${source.id}/fork`, { turnId: middle, workspace: 'checkout' })))[0]);
      const [fromStore] = await timed(async () => {
        const read = await server.store.list(source.id);
        const copied = read
          .slice(0, read.length / 2)
          .map(({ type, turnId, scope, data }) => ({ threadId: `thr_raw${run}`, type, turnId, scope, data }));
        await lastValueFrom(from(server.store.append(copied as NewThreadEvent[])));
      });
      storeMs.push(fromStore);
      const folder = path.join(root, `raw-${run}`);
      gitMs.push(
        (await timed(async () => git(repo, 'worktree', 'add', '-q', '-b', `raw-${run}`, folder, `${forked.workspace.baseCommit}`)))[0],
      );
      const forkRows = await server.store.list(forked.id);
      forkedRows = forkRows.length;
      if (forkRows.some((row, i) => row.seq !== i + 1)) throw new Error('the fork’s seqs are not 1..n');
    }
    const unchanged = JSON.stringify(await server.store.list(source.id)) === before;
    const ms = (values: number[]) => `${values.map((v) => v.toFixed(0)).join(', ')} (median ${median(values).toFixed(0)})`;
    console.log(
      `fork into a worktree, POST → view ms: ${ms(worktreeMs)}; goal ≤ ${GOAL_MS} ms ${median(worktreeMs) <= GOAL_MS ? 'met' : 'NOT met'}`,
    );
    console.log(
      `fork into the checkout, POST → view ms: ${ms(checkoutMs)}; goal ≤ ${GOAL_MS} ms ${median(checkoutMs) <= GOAL_MS ? 'met' : 'NOT met'}`,
    );
    console.log(`  the store alone (list ${rows.length} + append ${rows.length / 2}) ms: ${ms(storeMs)}`);
    console.log(`  git worktree add of the fork's commit ms: ${ms(gitMs)}`);
    console.log(`  ratio worktree fork / (store + git): ${(median(worktreeMs) / (median(storeMs) + median(gitMs))).toFixed(2)}×`);
    console.log(`fork rows: ${forkedRows} (seqs 1..n); source rows unchanged: ${unchanged}`);
    if (!unchanged) process.exitCode = 1;
  } catch (error) {
    console.error(error);
    process.exitCode = 1;
  } finally {
    await server.close();
    await rm(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
}

void main();
