/**
 * npm run bench:review — the review loop over HTTP against a real server (embedded host, the real git wing),
 * each against the raw git command doing the same work, same run (issue 38):
 *  1. a worktree thread: `POST /threads {workspace: "worktree"}` until it answers `ready`, on a repository of
 *     10,000 files, vs `git worktree add -b <branch> <folder> HEAD` of the same repository (goal ≤ 1.3×);
 *  2. a diff: `GET /threads/:id/diff?scope=uncommitted` of a change of 1,000 files and 50,000 lines, body read
 *     and parsed, vs `git diff HEAD` of the same worktree, its output read (goal ≤ 1.5×).
 * Runs alternate (git, then HTTP) so a busy moment of the machine lands on both; medians are compared.
 * `BENCH_REVIEW_RUNS` (default 5) runs of each.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { configWith } from '../src/config/serverConfig';
import { startServer } from '../src/server/startServer';

const FILES = 10_000;
const CHANGED_FILES = 1_000;
const LINES_PER_CHANGED_FILE = 50;
const RUNS = Number(process.env.BENCH_REVIEW_RUNS ?? 5);
const TOKEN = 'bench-token-0123456789abcdef';
const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Bench',
  GIT_AUTHOR_EMAIL: 'bench@example.com',
  GIT_COMMITTER_NAME: 'Bench',
  GIT_COMMITTER_EMAIL: 'bench@example.com',
  GIT_CONFIG_GLOBAL: '/dev/null',
};
const run = promisify(execFile);
const git = (cwd: string, ...args: string[]) => run('git', args, { cwd, env: GIT_ENV, maxBuffer: 1 << 30 });

async function makeRepo(folder: string): Promise<void> {
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: folder, env: GIT_ENV });
  for (let dir = 0; dir < FILES / 100; dir++) {
    await mkdir(path.join(folder, `pkg${dir}`), { recursive: true });
    await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        writeFile(path.join(folder, `pkg${dir}`, `file${i}.ts`), `export const value${i} = ${dir * 100 + i};\n`.repeat(20)),
      ),
    );
  }
  await git(folder, 'add', '-A');
  await git(folder, 'commit', '-q', '-m', 'ten thousand files');
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const timed = async (work: () => Promise<unknown>) => {
  const start = performance.now();
  await work();
  return performance.now() - start;
};

async function main(): Promise<void> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'ats-bench-review-'));
  const repo = path.join(root, 'repo');
  await mkdir(repo);
  console.log(`making a repository of ${FILES} files…`);
  await makeRepo(repo);
  console.log('made; starting the server…');
  const server = await startServer({
    config: configWith({ port: 0, token: TOKEN, dataDir: path.join(root, 'data') }),
    log: () => undefined,
  });
  const api = async (pathname: string, init: { method?: string; body?: unknown } = {}) => {
    const response = await fetch(`${server.url}/api/v1${pathname}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: { authorization: `Bearer ${TOKEN}`, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${pathname} → ${response.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  try {
    const project = await api('/projects', { body: { name: 'bench', source: { type: 'local_path', path: repo, hostId: server.hostId } } });
    const newThread = (title: string) =>
      api('/threads', { body: { projectId: project.id, provider: 'pi', model: 'm', title, workspace: 'worktree' } });
    await api(`/threads/${(await newThread('warm-up')).id}?deleteBranch=true`, { method: 'DELETE' });

    const gitTimes: number[] = [];
    const httpTimes: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const folder = path.join(root, `git-wt-${i}`);
      gitTimes.push(await timed(() => git(repo, 'worktree', 'add', '-q', '-b', `bench/git-${i}`, folder, 'HEAD')));
      await git(repo, 'worktree', 'remove', '--force', folder);
      let thread: { id: string; workspace: { state: string } } | undefined;
      httpTimes.push(await timed(async () => (thread = await newThread(`run ${i}`))));
      if (thread?.workspace.state !== 'ready') throw new Error(`the thread answered ${thread?.workspace.state}`);
      await api(`/threads/${thread.id}?deleteBranch=true`, { method: 'DELETE' });
    }
    report(`worktree thread, ${FILES} files (POST → ready vs git worktree add)`, httpTimes, gitTimes, 1.3);

    const thread = await newThread('the diff');
    const folder: string = thread.workspace.path;
    for (let i = 0; i < CHANGED_FILES; i++) {
      const lines = Array.from({ length: LINES_PER_CHANGED_FILE }, (_, line) => `export const changed${line} = '${i}-${line}';`).join('\n');
      await writeFile(path.join(folder, `pkg${(Math.floor(i / 100) * 10) % 100}`, `file${i % 100}.ts`), `${lines}\n`);
    }
    const changed = (await git(folder, 'diff', '--shortstat', 'HEAD')).stdout.trim();
    console.log(`the change: ${changed}`);
    const diffGit: number[] = [];
    const diffHttp: number[] = [];
    let files = 0;
    for (let i = 0; i < RUNS; i++) {
      diffGit.push(await timed(() => git(folder, 'diff', 'HEAD')));
      diffHttp.push(await timed(async () => (files = (await api(`/threads/${thread.id}/diff?scope=uncommitted`)).files.length)));
    }
    console.log(`the answer listed ${files} files`);
    report(`diff of ${CHANGED_FILES} files (GET …/diff over HTTP vs git diff HEAD)`, diffHttp, diffGit, 1.5);
    await reportTransferFloor(JSON.stringify(await api(`/threads/${thread.id}/diff?scope=uncommitted`)), diffGit);
  } catch (error) {
    console.error(error);
    process.exitCode = 1;
  } finally {
    await server.close();
    await rm(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
}

/**
 * What the same answer costs with no git and no service at all: its bytes served as one ready string by a bare
 * node:http server, fetched and parsed the way the diff above is. The diff cannot be faster than git + this.
 */
async function reportTransferFloor(body: string, gitTimes: number[]): Promise<void> {
  const server = http.createServer((_request, response) => response.end(body));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) times.push(await timed(async () => JSON.parse(await (await fetch(url)).text())));
  server.close();
  const ratio = median(times) / median(gitTimes);
  console.log(
    `the same ${(body.length / 1e6).toFixed(1)} MB answer from a bare HTTP server, fetched and parsed: median ${median(times).toFixed(0)} ms = ${ratio.toFixed(2)}× git diff (the floor a non-streamed answer adds to git's own time)`,
  );
}

function report(what: string, ours: number[], baseline: number[], goal: number): void {
  const ratio = median(ours) / median(baseline);
  const ms = (values: number[]) => values.map((value) => value.toFixed(0)).join(', ');
  console.log(
    `${what}\n  ours ms: ${ms(ours)} (median ${median(ours).toFixed(0)})\n  git ms:  ${ms(baseline)} (median ${median(baseline).toFixed(0)})`,
  );
  console.log(`  ratio ${ratio.toFixed(2)}× (goal ≤ ${goal}×) ${ratio <= goal ? 'met' : 'NOT met'}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
