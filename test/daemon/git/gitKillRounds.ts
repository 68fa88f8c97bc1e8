import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { crashRandom } from '../../helpers/crash/harness';
import { filesOf } from './filesOf';
import { git, makeProject, worktreeList } from './gitFixture';

const REPO = path.resolve(__dirname, '..', '..', '..');
const PROJECT = 'proj_kill';

export interface WingChild {
  request(method: string, params: unknown): Promise<any>;
  ready: Promise<void>;
  kill(): Promise<void>;
}

/** `gitWingChild.ts` with a pipe to its stdin: requests by line, answers matched by id. */
export function startChild(dataDir: string, cache: string): WingChild {
  const child: ChildProcess = spawn(
    process.execPath,
    ['-r', 'ts-node/register/transpile-only', 'test/daemon/git/gitWingChild.ts', dataDir],
    {
      cwd: REPO,
      env: { ...process.env, CRASH_TRANSPILE_CACHE: cache },
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  const waiting = new Map<number, { resolve(value: any): void; reject(error: Error): void }>();
  let stderr = '';
  let partial = '';
  let onReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (onReady = resolve));
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => {
    partial += chunk;
    let end: number;
    while ((end = partial.indexOf('\n')) >= 0) {
      const line = partial.slice(0, end);
      partial = partial.slice(end + 1);
      if (line === 'ready') onReady();
      const match = /^(ack|fail) (\d+) (.*)$/.exec(line);
      const waiter = match && waiting.get(Number(match[2]));
      if (!match || !waiter) continue;
      waiting.delete(Number(match[2]));
      if (match[1] === 'ack') waiter.resolve(JSON.parse(match[3]!));
      else waiter.reject(new Error(match[3]));
    }
  });
  void closed.then(() => {
    for (const waiter of waiting.values()) waiter.reject(new Error(`the git child ended; stderr: ${stderr}`));
  });
  let id = 0;
  return {
    ready: Promise.race([ready, closed.then(() => Promise.reject(new Error(`the git child ended before ready: ${stderr}`)))]),
    request(method, params) {
      const requestId = ++id;
      return new Promise((resolve, reject) => {
        waiting.set(requestId, { resolve, reject });
        child.stdin!.write(`${JSON.stringify({ id: requestId, method, params })}\n`);
      });
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await closed;
    },
  };
}

type ThreadState = 'none' | 'ready' | 'archived' | 'deleted';
interface ThreadModel {
  id: string;
  state: ThreadState;
  branch: string | null;
  /** Files and `git status` its worktree must show when ready (again). */
  expected?: { files: Record<string, string>; status: string };
}
interface Op {
  method: string;
  params: Record<string, unknown>;
  then: ThreadState;
  thread: ThreadModel;
}

export interface KillRoundsResult {
  rounds: number;
  /** Rounds whose SIGKILL came before the command answered. */
  killedMidCommand: number;
  ops: Record<string, number>;
  seed: string;
}

/**
 * The kill test of the git wing (issue 38): each round starts the wing in a child (its start-up recovery),
 * retries the command the last round's kill interrupted (as the server does), prunes with the live threads,
 * checks the invariants, then sends a random create, archive (with uncommitted work), restore or delete and
 * SIGKILLs the child at a random moment of it. Invariants: `git worktree list` holds exactly the user's
 * worktrees and the ready threads', every ready worktree holds its files byte for byte (no change lost),
 * `git fsck` is clean, the user's own worktree is untouched, no ref of a deleted thread is left.
 */
export async function runGitKillRounds(options: {
  root: string;
  rounds: number;
  maxDelayMs: number;
  seed?: number;
}): Promise<KillRoundsResult> {
  const random = crashRandom(options.seed);
  const { checkout, userWorktree } = makeProject(options.root);
  const dataDir = path.join(options.root, 'data');
  const cache = path.join(options.root, 'transpiled');
  const userBefore = { files: filesOf(userWorktree), status: git(userWorktree, 'status', '--porcelain') };
  const threads: ThreadModel[] = [];
  const ops: Record<string, number> = {};
  let pending: Op | null = null;
  let killedMidCommand = 0;
  const took = new Map<string, number>();
  const folderOf = (thread: ThreadModel) => path.join(dataDir, 'worktrees', PROJECT, thread.id);
  const ids = (thread: ThreadModel) => ({ threadId: thread.id, projectId: PROJECT, checkout });

  const settle = async (child: WingChild): Promise<void> => {
    await child.ready;
    if (pending) {
      const started = Date.now();
      await child.request(pending.method, pending.params);
      // How long this command takes here: the next kill of it is aimed anywhere within that (and a bit past).
      took.set(pending.method, Date.now() - started);
      pending.thread.state = pending.then;
      if (pending.then === 'ready' && !pending.thread.expected) pending.thread.expected = stateOf(folderOf(pending.thread));
      pending = null;
    }
    const live = threads.filter((thread) => thread.state !== 'deleted' && thread.state !== 'none').map((thread) => thread.id);
    await child.request('git.prune_worktrees', { liveThreadIds: live });
    checkInvariants();
  };
  const checkInvariants = (): void => {
    const context = `after recovery (${random.describe()})`;
    const ready = threads.filter((thread) => thread.state === 'ready');
    expect(worktreeList(checkout), context).to.have.members([checkout, userWorktree, ...ready.map(folderOf)]);
    for (const thread of ready) expect(stateOf(folderOf(thread)), `${context}: ${thread.id}`).to.deep.equal(thread.expected);
    expect(git(checkout, 'fsck', '--no-progress', '--no-dangling'), context).to.equal('');
    expect({ files: filesOf(userWorktree), status: git(userWorktree, 'status', '--porcelain') }, context).to.deep.equal(userBefore);
    const refs = git(checkout, 'for-each-ref', '--format=%(refname)', 'refs/ats/');
    for (const thread of threads.filter((t) => t.state === 'deleted')) expect(refs, context).to.not.include(thread.id);
    const folders = existsSync(path.dirname(folderOf({ id: 'x' } as ThreadModel)))
      ? readdirSync(path.dirname(folderOf({ id: 'x' } as ThreadModel)))
      : [];
    expect(folders.filter((name) => !name.endsWith('.json')).sort(), context).to.deep.equal(ready.map((t) => t.id).sort());
  };
  const nextOp = (round: number): Op => {
    const alive = threads.filter((thread) => thread.state === 'ready' || thread.state === 'archived');
    if (alive.length < 3 && random.next() < 0.5) {
      const thread: ThreadModel = {
        id: `thr_kill${String(round).padStart(4, '0')}`,
        state: 'none',
        branch: random.next() < 0.8 ? `ats/kill-${round}` : null,
      };
      threads.push(thread);
      return { method: 'git.worktree_create', params: { ...ids(thread), branch: thread.branch }, then: 'ready', thread };
    }
    if (alive.length === 0) return nextOp(round);
    const thread = alive[random.between(0, alive.length - 1)]!;
    if (random.next() < 0.25)
      return {
        method: 'git.worktree_remove',
        params: { ...ids(thread), keepSnapshot: false, deleteBranch: random.next() < 0.5 },
        then: 'deleted',
        thread,
      };
    if (thread.state === 'ready') {
      makeDirty(folderOf(thread), round);
      thread.expected = stateOf(folderOf(thread));
      return { method: 'git.worktree_remove', params: { ...ids(thread), keepSnapshot: true }, then: 'archived', thread };
    }
    return { method: 'git.worktree_restore', params: { ...ids(thread), branch: thread.branch, baseCommit: 'HEAD' }, then: 'ready', thread };
  };

  for (let round = 0; round < options.rounds; round++) {
    const child = startChild(dataDir, cache);
    try {
      await settle(child);
      const op = nextOp(round);
      ops[op.method] = (ops[op.method] ?? 0) + 1;
      pending = op;
      const answered = child.request(op.method, op.params).then(
        () => true,
        () => true,
      );
      const window = Math.max(options.maxDelayMs, 1.2 * (took.get(op.method) ?? 0));
      const delay = new Promise<false>((resolve) => setTimeout(() => resolve(false), random.between(0, window)));
      if (!(await Promise.race([answered, delay]))) killedMidCommand += 1;
    } finally {
      await child.kill();
    }
  }
  const last = startChild(dataDir, cache);
  try {
    await settle(last);
    for (const thread of threads.filter((t) => t.state === 'archived')) {
      await last.request('git.worktree_restore', { ...ids(thread), branch: thread.branch, baseCommit: 'HEAD' });
      thread.state = 'ready';
    }
    checkInvariants();
  } finally {
    await last.kill();
  }
  return { rounds: options.rounds, killedMidCommand, ops, seed: random.describe() };
}

/** A worktree's files (bytes, modes, links) and `git status`: what must survive an archive and a restore. */
function stateOf(folder: string): { files: Record<string, string>; status: string } {
  return { files: filesOf(folder), status: git(folder, 'status', '--porcelain') };
}

/** Uncommitted work of every kind: staged, unstaged, untracked, an executable, a symlink. */
function makeDirty(folder: string, round: number): void {
  writeFileSync(path.join(folder, `staged-${round}.txt`), `staged ${round}\n`);
  git(folder, 'add', `staged-${round}.txt`);
  writeFileSync(path.join(folder, 'src', 'lines.txt'), `edited in round ${round}\n`);
  writeFileSync(path.join(folder, `untracked-${round}.sh`), '#!/bin/sh\n');
  chmodSync(path.join(folder, `untracked-${round}.sh`), 0o755);
}
