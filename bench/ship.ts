/**
 * npm run bench:ship — commit + push of a 1,000-file change to a local bare remote through the host's ship
 * commands (`git.commit` then `git.push`, through the real dispatcher and git wing), vs the same work done by
 * `git add -A && git commit -m … && git push` in a twin repository, same run (issue 39, goal ≤ 1.2×).
 * Each run changes all 1,000 files in both twins; runs alternate (git first, then ours, then the other way) so a
 * busy moment of the machine lands on both; medians are compared. `BENCH_SHIP_RUNS` (default 5) runs of each.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { createGitWing } from '../src/daemon/git/gitHandlers';
import { createHostDispatcher, type HostHandlers } from '../src/daemon/hostDispatcher';

const FILES = 1_000;
const RUNS = Number(process.env.BENCH_SHIP_RUNS ?? 5);
const THREAD = 'thr_benchship0123456';
const run = promisify(execFile);
const git = (cwd: string, ...args: string[]) => run('git', args, { cwd, maxBuffer: 1 << 30 });

/** A repository of FILES files on `feature`, pushed once to its own bare `origin`. */
async function makeTwin(root: string, name: string): Promise<string> {
  const folder = path.join(root, name);
  const origin = path.join(root, `${name}-origin.git`);
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', origin]);
  await mkdir(folder);
  execFileSync('git', ['init', '-q', '-b', 'feature'], { cwd: folder });
  await git(folder, 'config', 'user.name', 'Bench');
  await git(folder, 'config', 'user.email', 'bench@example.com');
  await changeAll(folder, 0);
  await git(folder, 'add', '-A');
  await git(folder, 'commit', '-q', '-m', 'base');
  await git(folder, 'remote', 'add', 'origin', origin);
  await git(folder, 'push', '-q', '-u', 'origin', 'feature');
  return folder;
}

async function changeAll(folder: string, round: number): Promise<void> {
  for (let dir = 0; dir < FILES / 100; dir++) {
    await mkdir(path.join(folder, `pkg${dir}`), { recursive: true });
    await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        writeFile(path.join(folder, `pkg${dir}`, `file${i}.ts`), `export const value${i} = ${round};\n`.repeat(20)),
      ),
    );
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'ats-bench-ship-'));
  try {
    const [ours, raw] = await Promise.all([makeTwin(root, 'ours'), makeTwin(root, 'raw')]);
    const wing = createGitWing({ dataDir: path.join(root, 'data'), log: () => {} });
    const dispatch = createHostDispatcher(wing.handlers as unknown as HostHandlers);
    let id = 0;
    const call = async (method: string, params: unknown) => {
      const response = (await dispatch({ jsonrpc: '2.0', id: ++id, method, params })) as { error?: { message: string } };
      if (response.error) throw new Error(response.error.message);
    };
    const timings = { ours: [] as number[], raw: [] as number[] };
    const shipOurs = async () => {
      await call('git.commit', { threadId: THREAD, path: ours, message: 'change' });
      await call('git.push', { threadId: THREAD, path: ours });
    };
    const shipRaw = async () => {
      await git(raw, 'add', '-A');
      await git(raw, 'commit', '-q', '-m', 'change');
      await git(raw, 'push', '-q');
    };
    for (let round = 1; round <= RUNS; round++) {
      await Promise.all([changeAll(ours, round), changeAll(raw, round)]);
      const order = round % 2 ? (['raw', 'ours'] as const) : (['ours', 'raw'] as const);
      for (const which of order) {
        const start = performance.now();
        await (which === 'ours' ? shipOurs() : shipRaw());
        timings[which].push(performance.now() - start);
      }
    }
    await wing.close();
    const [o, r] = [median(timings.ours), median(timings.raw)];
    console.log(`commit + push of ${FILES} changed files, ${RUNS} runs (medians)`);
    console.log(`  git add -A && git commit && git push: ${r.toFixed(0)} ms  [${timings.raw.map((t) => t.toFixed(0)).join(', ')}]`);
    console.log(`  git.commit + git.push (host):         ${o.toFixed(0)} ms  [${timings.ours.map((t) => t.toFixed(0)).join(', ')}]`);
    console.log(`  ratio ${(o / r).toFixed(2)}× (goal ≤ 1.2×)`);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exitCode = 1;
});
