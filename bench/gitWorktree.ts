/**
 * `npm run bench:git`: the daemon's git commands at the host-command level (the dispatcher, no HTTP) against
 * the raw git commands in the same run (issue 38's goals):
 * - create a worktree (→ ready) of a 10k-file repository ≤ 1.3× `git worktree add` of it;
 * - the `uncommitted` diff of a 1,000-file, 50k-line change ≤ 1.5× `git diff HEAD` of the same change.
 * Medians of RUNS runs, interleaved so load on the machine hits both sides alike.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHostDispatcher, type HostHandlers } from '../src/daemon/hostDispatcher';
import { createGitWing } from '../src/daemon/git/gitHandlers';

const FILES = Number(process.env.FILES ?? 10_000);
const CHANGED = Number(process.env.CHANGED ?? 1_000);
const LINES_EACH = 50;
const RUNS = Number(process.env.RUNS ?? 5);
const ENV = { ...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@b', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@b' };

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', args, { cwd, env: ENV, encoding: 'utf8', maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'pipe'] });

function makeRepo(checkout: string): void {
  mkdirSync(checkout, { recursive: true });
  git(checkout, 'init', '-q', '-b', 'main');
  for (let i = 0; i < FILES; i++) {
    const dir = path.join(checkout, `dir${i % 100}`);
    if (i < 100) mkdirSync(dir);
    writeFileSync(path.join(dir, `file${i}.txt`), Array.from({ length: LINES_EACH }, (_, n) => `file ${i} line ${n}`).join('\n') + '\n');
  }
  writeFileSync(path.join(checkout, '.gitignore'), '.env\n');
  writeFileSync(path.join(checkout, '.worktreeinclude'), '.env\n');
  writeFileSync(path.join(checkout, '.env'), 'SECRET=1\n');
  git(checkout, 'add', '-A');
  git(checkout, 'commit', '-q', '-m', 'bench');
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
async function timed(work: () => unknown): Promise<number> {
  const started = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

async function main(): Promise<void> {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'bench-git-')));
  try {
    const checkout = path.join(root, 'project');
    makeRepo(checkout);
    const wing = createGitWing({ dataDir: path.join(root, 'data'), log: (message) => console.error(message) });
    const dispatch = createHostDispatcher(wing.handlers as unknown as HostHandlers);
    let id = 0;
    const call = async (method: string, params: unknown) => {
      const response = (await dispatch({ jsonrpc: '2.0', id: ++id, method, params })) as { error?: { message: string }; result?: any };
      if (response.error) throw new Error(response.error.message);
      return response.result;
    };
    const raw: number[] = [];
    const ours: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const plain = path.join(root, `plain-${run}`);
      raw.push(await timed(() => git(checkout, 'worktree', 'add', '-q', '-b', `plain-${run}`, plain, 'HEAD')));
      const threadId = `thr_bench${run}`;
      ours.push(
        await timed(() => call('git.worktree_create', { threadId, projectId: 'proj_bench', checkout, branch: `ats/bench-${run}` })),
      );
      git(checkout, 'worktree', 'remove', '--force', plain);
      if (run < RUNS - 1)
        await call('git.worktree_remove', { threadId, projectId: 'proj_bench', checkout, keepSnapshot: false, deleteBranch: true });
    }
    console.log(
      `create (${FILES} files): git worktree add ${median(raw).toFixed(0)} ms, git.worktree_create ${median(ours).toFixed(0)} ms, ` +
        `ratio ${(median(ours) / median(raw)).toFixed(2)} (goal ≤ 1.3)`,
    );

    const worktree = path.join(root, 'data', 'worktrees', 'proj_bench', `thr_bench${RUNS - 1}`);
    for (let i = 0; i < CHANGED; i++) {
      const file = path.join(worktree, `dir${i % 100}`, `file${i}.txt`);
      writeFileSync(file, Array.from({ length: LINES_EACH }, (_, n) => `file ${i} line ${n} changed`).join('\n') + '\n');
    }
    const rawDiff: number[] = [];
    const ourDiff: number[] = [];
    let lines = 0;
    for (let run = 0; run < RUNS; run++) {
      rawDiff.push(await timed(() => git(worktree, 'diff', 'HEAD')));
      ourDiff.push(
        await timed(async () => {
          const diff = await call('git.diff', { threadId: `thr_bench${RUNS - 1}`, path: worktree, scope: 'uncommitted' });
          lines = diff.files.reduce((sum: number, file: any) => sum + file.additions + file.deletions, 0);
        }),
      );
    }
    console.log(
      `diff (${CHANGED} files, ${lines} changed lines): git diff HEAD ${median(rawDiff).toFixed(0)} ms, git.diff ${median(ourDiff).toFixed(0)} ms, ` +
        `ratio ${(median(ourDiff) / median(rawDiff)).toFixed(2)} (goal ≤ 1.5)`,
    );
    await wing.close();
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

void main();
