import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { crashRandom } from '../../../helpers/crash/harness';
import { suiteTempDirs } from '../../../helpers/temp/suiteDirs';
import { treeFiles } from '../../../server/fork/treeFiles';
import { filesOf } from '../filesOf';
import { git, makeProject, worktreeList } from '../gitFixture';
import { startChild, type WingChild } from '../gitKillRounds';

const PROJECT = 'proj_kill';
const SOURCE = 'thr_source';
const TURN = 'turn-one';
const ROUNDS = 6;

/** A fork the test asked for: made (the retry after a kill answered), given up (the server's undo), or none yet. */
interface ForkModel {
  id: string;
  branch: string;
  state: 'pending' | 'ready' | 'gone';
}

/** Every `*.lock` git left under a folder (index.lock, HEAD.lock, a ref's lock…). */
function locksUnder(folder: string): string[] {
  return execFileSync('find', [folder, '-name', '*.lock'], { encoding: 'utf8' }).split('\n').filter(Boolean);
}

/** The tree of a folder's files as a turn recorder takes it: a temporary index, `git add --all`, `git write-tree`. */
function recordTurnEnd(worktree: string, index: string): string {
  const env = { ...process.env, GIT_INDEX_FILE: index };
  execFileSync('git', ['add', '--all'], { cwd: worktree, env });
  const tree = execFileSync('git', ['write-tree'], { cwd: worktree, env, encoding: 'utf8' }).trim();
  git(worktree, 'update-ref', `refs/ats/turns/${SOURCE}/000001700000000-${TURN}/start`, tree);
  git(worktree, 'update-ref', `refs/ats/turns/${SOURCE}/000001700000000-${TURN}/end`, tree);
  return tree;
}

/**
 * Issue 39: the daemon's git wing SIGKILLed at random moments of `git.worktree_fork`. After each restart (its
 * start-up recovery), the server's two answers to a fork whose host went away are played at random: the fork
 * asked again (it happens once: the same worktree, never a second), or given up (`git.worktree_remove` with its
 * branch: nothing of it is left). Always: no half-made worktree, no git lock file, `git fsck` clean, the
 * source's worktree, branch and turn refs untouched, and every made fork's files the turn's end tree byte for byte.
 */
describe('git wing: SIGKILL in the middle of a fork (issue 39)', function () {
  this.timeout(180_000);
  const tempDir = suiteTempDirs();

  it('forks once or not at all, leaves no half-made worktree or lock, and never touches the source', async () => {
    const random = crashRandom();
    const root = realpathSync(await tempDir('ats-fork-kill-'));
    const { checkout, userWorktree } = makeProject(root);
    const dataDir = path.join(root, 'data');
    const cache = path.join(root, 'transpiled');
    const folderOf = (threadId: string) => path.join(dataDir, 'worktrees', PROJECT, threadId);
    const ids = (threadId: string) => ({ threadId, projectId: PROJECT, checkout });

    const first = startChild(dataDir, cache);
    await first.ready;
    await first.request('git.worktree_create', { ...ids(SOURCE), branch: 'ats/source' });
    await first.kill();
    const sourceFolder = folderOf(SOURCE);
    writeFileSync(path.join(sourceFolder, 'turn-work.txt'), 'written in the turn\n');
    writeFileSync(path.join(sourceFolder, 'README.md'), '# changed in the turn\n');
    const tree = recordTurnEnd(sourceFolder, path.join(root, 'turn-index'));
    writeFileSync(path.join(sourceFolder, 'after-turn.txt'), 'not in the fork\n'); // the user's work since
    const expectedFork = treeFiles(checkout, tree);
    const source = { files: filesOf(sourceFolder), status: git(sourceFolder, 'status', '--porcelain') };
    const sourceRefs = git(checkout, 'for-each-ref', '--format=%(objectname) %(refname)', 'refs/heads/ats/source', 'refs/ats/');
    const user = { files: filesOf(userWorktree), status: git(userWorktree, 'status', '--porcelain') };

    const forks: ForkModel[] = [];
    const forkParams = (fork: ForkModel) => ({
      ...ids(fork.id),
      branch: fork.branch,
      sourceThreadId: SOURCE,
      turnId: TURN,
      sourcePath: sourceFolder,
    });

    const settle = async (child: WingChild): Promise<void> => {
      await child.ready;
      for (const fork of forks.filter((candidate) => candidate.state === 'pending')) {
        if (random.next() < 0.5) {
          await child.request('git.worktree_fork', forkParams(fork));
          fork.state = 'ready';
        } else {
          await child.request('git.worktree_remove', { ...ids(fork.id), keepSnapshot: false, deleteBranch: true, branch: fork.branch });
          fork.state = 'gone';
        }
      }
      const context = random.describe();
      const ready = forks.filter((fork) => fork.state === 'ready');
      expect(worktreeList(checkout), context).to.have.members([checkout, userWorktree, sourceFolder, ...ready.map((f) => folderOf(f.id))]);
      for (const fork of ready) {
        const { '.env': included, ...files } = filesOf(folderOf(fork.id));
        expect(files, `${context}: ${fork.id}`).to.deep.equal(expectedFork);
        expect(included, 'the .worktreeinclude copy').to.be.a('string');
        expect(git(folderOf(fork.id), 'status', '--porcelain'), context).to.equal('');
      }
      const branches = git(checkout, 'branch', '--format=%(refname:short)').split('\n');
      for (const fork of forks.filter((f) => f.state === 'gone')) expect(branches, context).to.not.include(fork.branch);
      const folders = readdirSync(path.join(dataDir, 'worktrees', PROJECT)).filter((name) => !name.endsWith('.json'));
      expect(folders.sort(), context).to.deep.equal([SOURCE, ...ready.map((f) => f.id)].sort());
      expect(locksUnder(path.join(checkout, '.git')), context).to.deep.equal([]);
      for (const folder of folders) expect(locksUnder(path.join(dataDir, 'worktrees', PROJECT, folder)), context).to.deep.equal([]);
      expect(git(checkout, 'fsck', '--no-progress', '--no-dangling'), context).to.equal('');
      expect({ files: filesOf(sourceFolder), status: git(sourceFolder, 'status', '--porcelain') }, context).to.deep.equal(source);
      expect(git(checkout, 'for-each-ref', '--format=%(objectname) %(refname)', 'refs/heads/ats/source', 'refs/ats/'), context).to.equal(
        sourceRefs,
      );
      expect({ files: filesOf(userWorktree), status: git(userWorktree, 'status', '--porcelain') }, context).to.deep.equal(user);
    };

    let took = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const child = startChild(dataDir, cache);
      try {
        await settle(child);
        const fork: ForkModel = { id: `thr_fork${round}`, branch: `ats/fork-${round}`, state: 'pending' };
        forks.push(fork);
        const started = Date.now();
        const answered = child.request('git.worktree_fork', forkParams(fork)).then(
          () => ((took = Date.now() - started), true),
          () => true,
        );
        const window = Math.max(300, 1.2 * took);
        const delay = new Promise<false>((resolve) => setTimeout(() => resolve(false), random.between(0, window)));
        await Promise.race([answered, delay]);
      } finally {
        await child.kill();
      }
    }
    const last = startChild(dataDir, cache);
    try {
      await settle(last);
    } finally {
      await last.kill();
    }
    expect(existsSync(folderOf(SOURCE))).to.equal(true);
    expect(forks.every((fork) => fork.state !== 'pending')).to.equal(true);
  });
});
