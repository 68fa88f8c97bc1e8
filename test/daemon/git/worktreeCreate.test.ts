import { expect } from 'chai';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { suiteTempDirs } from '../../helpers/temp/suiteDirs';
import { git, gitDaemon, makeProject, worktreeList } from './gitFixture';

const THREAD = 'thr_0123456789abcdef';
const PROJECT = 'proj_a';

describe('git.worktree_create: a thread worktree made with the real git CLI', function () {
  this.timeout(60_000);
  const tempDir = suiteTempDirs();

  async function setup() {
    const root = realpathSync(await tempDir('ats-git-create-'));
    const { checkout, userWorktree } = makeProject(root);
    return { root, checkout, userWorktree, daemon: gitDaemon(path.join(root, 'data')) };
  }

  it('adds a worktree on a new branch under the data dir, copies the .worktreeinclude files and runs the setup script', async () => {
    const { root, checkout, userWorktree, daemon } = await setup();
    const result = await daemon.call('git.worktree_create', {
      threadId: THREAD,
      projectId: PROJECT,
      checkout,
      branch: 'ats/0123-fix',
      setupScript: 'echo "wt=$ATS_WORKTREE_PATH src=$ATS_SOURCE_TREE_PATH"; echo oops >&2; exit 3',
    });
    const folder = path.join(root, 'data', 'worktrees', PROJECT, THREAD);
    expect(result).to.deep.include({ path: folder, branch: 'ats/0123-fix', baseRef: 'HEAD' });
    expect(result.baseCommit).to.equal(git(checkout, 'rev-parse', 'HEAD').trim());
    expect(result.setup).to.deep.equal({ exitCode: 3, output: `wt=${folder} src=${checkout}\noops\n`, truncated: false });
    expect(git(folder, 'branch', '--show-current').trim()).to.equal('ats/0123-fix');
    expect(readFileSync(path.join(folder, '.env'), 'utf8')).to.equal('SECRET=1\n');
    expect(git(folder, 'status', '--porcelain')).to.equal('');
    expect(worktreeList(checkout)).to.have.members([checkout, userWorktree, folder]);
    expect(readFileSync(path.join(userWorktree, 'user-work.txt'), 'utf8')).to.equal('mine\n');
  });

  it('answers the same worktree again without making it anew (idempotent per thread)', async () => {
    const { checkout, daemon } = await setup();
    const params = { threadId: THREAD, projectId: PROJECT, checkout, branch: 'ats/again', setupScript: 'echo once >> ../setup-runs' };
    const first = await daemon.call('git.worktree_create', params);
    const marker = path.join(first.path, 'kept.txt');
    require('node:fs').writeFileSync(marker, 'work in progress\n');
    const second = await daemon.call('git.worktree_create', params);
    expect(second).to.deep.equal(first);
    expect(readFileSync(marker, 'utf8')).to.equal('work in progress\n');
    expect(readFileSync(path.join(first.path, '..', 'setup-runs'), 'utf8')).to.equal('once\n');
  });

  it('makes a detached worktree for branch null, at the given baseRef', async () => {
    const { checkout, daemon } = await setup();
    const first = git(checkout, 'rev-parse', 'HEAD').trim();
    git(checkout, 'commit', '-q', '--allow-empty', '-m', 'second');
    const result = await daemon.call('git.worktree_create', {
      threadId: THREAD,
      projectId: PROJECT,
      checkout,
      branch: null,
      baseRef: 'HEAD~1',
    });
    expect(result).to.deep.include({ branch: null, baseRef: 'HEAD~1', baseCommit: first, setup: null });
    expect(git(result.path, 'rev-parse', 'HEAD').trim()).to.equal(first);
    expect(git(result.path, 'branch', '--show-current').trim()).to.equal('');
  });

  it('refuses a branch git refuses, an unknown ref, an option-looking ref and a folder outside git, with their codes', async () => {
    const { root, checkout, daemon } = await setup();
    const base = { threadId: THREAD, projectId: PROJECT, checkout };
    const refusal = (params: object) =>
      daemon.call('git.worktree_create', { ...base, ...params }).then(
        () => null,
        (error) => error.hostCode,
      );
    expect(await refusal({ branch: 'bad..name' })).to.equal('invalid_branch');
    expect(await refusal({ branch: '-b' })).to.equal('invalid_branch');
    expect(await refusal({ branch: 'ok', baseRef: 'no-such-ref' })).to.equal('unknown_ref');
    expect(await refusal({ branch: 'ok', baseRef: `--output=${root}/pwned` })).to.equal('unknown_ref');
    expect(existsSync(path.join(root, 'pwned'))).to.equal(false);
    expect(await refusal({ branch: 'ok', checkout: root })).to.equal('not_a_git_repository');
    expect(git(checkout, 'branch', '--list', 'ok')).to.equal('');
    expect(worktreeList(checkout)).to.have.length(2);
  });

  it('checks out an existing branch it did not make, and never deletes it', async () => {
    const { checkout, daemon } = await setup();
    git(checkout, 'branch', 'feature');
    const made = await daemon.call('git.worktree_create', { threadId: THREAD, projectId: PROJECT, checkout, branch: 'feature' });
    expect(git(made.path, 'branch', '--show-current').trim()).to.equal('feature');
    await daemon.call('git.worktree_remove', { threadId: THREAD, projectId: PROJECT, checkout, keepSnapshot: false, deleteBranch: true });
    expect(git(checkout, 'branch', '--list', 'feature').trim()).to.equal('feature');
    expect(existsSync(made.path)).to.equal(false);
  });
});
