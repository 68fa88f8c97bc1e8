import { expect } from 'chai';
import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { suiteTempDirs } from '../../helpers/temp/suiteDirs';
import { git, gitDaemon, makeProject, worktreeList } from './gitFixture';

const PROJECT = 'proj_a';

describe('git wing: start-up recovery and git.prune_worktrees', function () {
  this.timeout(60_000);
  const tempDir = suiteTempDirs();

  async function project() {
    const root = realpathSync(await tempDir('ats-git-recover-'));
    return { root, dataDir: path.join(root, 'data'), ...makeProject(root) };
  }

  it('removes at start a worktree whose create never reached ready, and the branch it made; a ready one stays', async () => {
    const { dataDir, checkout, userWorktree } = await project();
    const first = gitDaemon(dataDir);
    const half = await first.call('git.worktree_create', { threadId: 'thr_half', projectId: PROJECT, checkout, branch: 'ats/half' });
    const whole = await first.call('git.worktree_create', { threadId: 'thr_whole', projectId: PROJECT, checkout, branch: 'ats/whole' });
    await first.wing.close();
    // What a kill between `git worktree add` and the completion marker leaves: the record still says creating.
    const record = `${half.path}.json`;
    writeFileSync(record, readFileSync(record, 'utf8').replace('"state": "ready"', '"state": "creating"'));

    const second = gitDaemon(dataDir);
    await second.wing.recovered;
    expect(existsSync(half.path)).to.equal(false);
    expect(existsSync(record)).to.equal(false);
    expect(git(checkout, 'branch', '--list', 'ats/half')).to.equal('');
    expect(worktreeList(checkout)).to.have.members([checkout, userWorktree, whole.path]);
    const again = await second.call('git.worktree_create', { threadId: 'thr_half', projectId: PROJECT, checkout, branch: 'ats/half' });
    expect(again.path).to.equal(half.path);
    expect(existsSync(path.join(again.path, '.env'))).to.equal(true);
  });

  it('prune archives the worktrees of threads that are gone (a dirty one into its snapshot) and keeps the live ones', async () => {
    const { dataDir, checkout, userWorktree } = await project();
    const daemon = gitDaemon(dataDir);
    const live = await daemon.call('git.worktree_create', { threadId: 'thr_live', projectId: PROJECT, checkout, branch: 'ats/live' });
    const gone = await daemon.call('git.worktree_create', { threadId: 'thr_gone', projectId: PROJECT, checkout, branch: 'ats/gone' });
    writeFileSync(path.join(gone.path, 'unsaved.txt'), 'never lose me\n');
    expect(await daemon.call('git.prune_worktrees', { liveThreadIds: ['thr_live'] })).to.deep.equal({ removed: ['thr_gone'] });
    expect(worktreeList(checkout)).to.have.members([checkout, userWorktree, live.path]);
    const snapshot = git(checkout, 'rev-parse', 'refs/ats/snapshots/thr_gone').trim();
    expect(git(checkout, 'show', `${snapshot}:unsaved.txt`)).to.equal('never lose me\n');
    expect(await daemon.call('git.prune_worktrees', { liveThreadIds: ['thr_live'] })).to.deep.equal({ removed: [] });
    expect(readFileSync(path.join(userWorktree, 'user-work.txt'), 'utf8')).to.equal('mine\n');
  });
});
