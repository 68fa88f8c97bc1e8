import { expect } from 'chai';
import {
  chmodSync,
  existsSync,
  lstatSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { suiteTempDirs } from '../../helpers/temp/suiteDirs';
import { git, gitDaemon, makeProject, worktreeList } from './gitFixture';

const THREAD = 'thr_archive0000000001';
const PROJECT = 'proj_a';

describe('git.worktree_remove / git.worktree_restore: archive and bring back, byte for byte', function () {
  this.timeout(60_000);
  const tempDir = suiteTempDirs();

  async function withWorktree(branch: string | null = 'ats/archive') {
    const root = realpathSync(await tempDir('ats-git-archive-'));
    const { checkout, userWorktree } = makeProject(root);
    const daemon = gitDaemon(path.join(root, 'data'));
    const made = await daemon.call('git.worktree_create', { threadId: THREAD, projectId: PROJECT, checkout, branch });
    const ids = { threadId: THREAD, projectId: PROJECT, checkout };
    return { root, checkout, userWorktree, daemon, folder: made.path as string, made, ids };
  }

  /** Staged, unstaged, untracked, a deleted file, a new executable, a new symlink, binary bytes. */
  function dirty(folder: string): void {
    writeFileSync(path.join(folder, 'README.md'), '# staged\n');
    git(folder, 'add', 'README.md');
    writeFileSync(path.join(folder, 'README.md'), '# staged then changed\n');
    writeFileSync(path.join(folder, 'src', 'lines.txt'), 'unstaged\n');
    writeFileSync(path.join(folder, 'notes.txt'), 'untracked\n');
    writeFileSync(path.join(folder, 'tool.sh'), '#!/bin/sh\n');
    chmodSync(path.join(folder, 'tool.sh'), 0o755);
    chmodSync(path.join(folder, 'run.sh'), 0o644);
    symlinkSync('notes.txt', path.join(folder, 'notes-link'));
    writeFileSync(path.join(folder, 'blob.bin'), Buffer.from([0, 1, 2, 255, 254, 0, 10]));
    rmSync(path.join(folder, 'readme-link'));
    writeFileSync(path.join(folder, 'node_modules-not'), 'x');
  }

  it('stores a dirty worktree under refs/ats/snapshots, removes it, and restores every file, its index and its status', async () => {
    const { checkout, userWorktree, daemon, folder, ids } = await withWorktree();
    dirty(folder);
    const before = { files: filesOf(folder), status: git(folder, 'status', '--porcelain'), staged: git(folder, 'diff', '--cached') };
    const removed = await daemon.call('git.worktree_remove', { ...ids, keepSnapshot: true });
    expect(removed).to.deep.equal({ snapshotRef: `refs/ats/snapshots/${THREAD}` });
    expect(existsSync(folder)).to.equal(false);
    expect(worktreeList(checkout)).to.have.members([checkout, userWorktree]);
    expect(git(checkout, 'branch', '--list', 'ats/archive').trim()).to.equal('ats/archive');
    expect(git(checkout, 'log', '--all', '--oneline')).to.include('first');

    const restored = await daemon.call('git.worktree_restore', {
      threadId: THREAD,
      projectId: PROJECT,
      checkout,
      branch: 'ats/archive',
      baseCommit: 'unused',
    });
    expect(restored).to.deep.equal({ path: folder, fromSnapshot: true });
    const after = { files: filesOf(folder), status: git(folder, 'status', '--porcelain'), staged: git(folder, 'diff', '--cached') };
    expect(after).to.deep.equal(before); // the ignored .env is not in the snapshot: .worktreeinclude copied it again
    expect(git(checkout, 'for-each-ref', 'refs/ats/')).to.equal('');
    expect(git(checkout, 'fsck', '--no-progress', '--no-dangling')).to.equal('');
    expect(readFileSync(path.join(userWorktree, 'user-work.txt'), 'utf8')).to.equal('mine\n');
  });

  it('removes a clean worktree keeping its branch and no snapshot; restore checks the branch out again', async () => {
    const { checkout, daemon, folder, ids } = await withWorktree();
    writeFileSync(path.join(folder, 'committed.txt'), 'done\n');
    git(folder, 'add', '.');
    git(folder, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'agent work');
    expect(await daemon.call('git.worktree_remove', { ...ids, keepSnapshot: true })).to.deep.equal({ snapshotRef: null });
    expect(existsSync(folder)).to.equal(false);
    expect(git(checkout, 'log', '-1', '--format=%s', 'ats/archive').trim()).to.equal('agent work');
    expect(await daemon.call('git.worktree_remove', { ...ids, keepSnapshot: true })).to.deep.equal({ snapshotRef: null });
    const restored = await daemon.call('git.worktree_restore', { ...ids, branch: 'ats/archive', baseCommit: 'x' });
    expect(restored).to.deep.equal({ path: folder, fromSnapshot: false });
    expect(readFileSync(path.join(folder, 'committed.txt'), 'utf8')).to.equal('done\n');
    expect(readFileSync(path.join(folder, '.env'), 'utf8')).to.equal('SECRET=1\n');
  });

  it("keeps a detached worktree's own commits reachable while it is archived", async () => {
    const { checkout, daemon, folder, ids } = await withWorktree(null);
    writeFileSync(path.join(folder, 'detached.txt'), 'only here\n');
    git(folder, 'add', '.');
    git(folder, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'detached work');
    const head = git(folder, 'rev-parse', 'HEAD').trim();
    expect(await daemon.call('git.worktree_remove', { ...ids, keepSnapshot: true })).to.deep.equal({
      snapshotRef: `refs/ats/snapshots/${THREAD}`,
    });
    git(checkout, 'reflog', 'expire', '--expire=now', '--all');
    git(checkout, 'gc', '-q', '--prune=now');
    await daemon.call('git.worktree_restore', { ...ids, branch: null, baseCommit: 'x' });
    expect(git(folder, 'rev-parse', 'HEAD').trim()).to.equal(head);
    expect(readFileSync(path.join(folder, 'detached.txt'), 'utf8')).to.equal('only here\n');
  });

  it('deletes the worktree, its snapshot and turn refs; the branch stays unless deleteBranch, and only if it made it', async () => {
    const { checkout, userWorktree, daemon, folder, ids } = await withWorktree();
    writeFileSync(path.join(folder, 'wip.txt'), 'wip\n');
    git(checkout, 'update-ref', `refs/ats/turns/${THREAD}/000000000000001-turn_1/start`, git(checkout, 'rev-parse', 'HEAD^{tree}').trim());
    await daemon.call('git.worktree_remove', { ...ids, keepSnapshot: true });
    await daemon.call('git.worktree_remove', { ...ids, keepSnapshot: false });
    expect(git(checkout, 'for-each-ref', 'refs/ats/')).to.equal('');
    expect(git(checkout, 'branch', '--list', 'ats/archive').trim()).to.equal('ats/archive');
    expect(worktreeList(checkout)).to.have.members([checkout, userWorktree]);
    const again = await daemon.call('git.worktree_create', { ...ids, branch: 'ats/second' });
    await daemon.call('git.worktree_remove', { ...ids, keepSnapshot: false, deleteBranch: true });
    expect(git(checkout, 'branch', '--list', 'ats/second')).to.equal('');
    expect(existsSync(again.path)).to.equal(false);
    expect(readdirSync(path.dirname(folder))).to.deep.equal([]);
  });
});
