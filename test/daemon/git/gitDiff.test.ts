import { expect } from 'chai';
import { realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gitDiff } from '../../../src/daemon/git/diff/gitDiff';
import { DIFF_LIMITS } from '../../../src/daemon/git/diff/diffLimits';
import { suiteTempDirs } from '../../helpers/temp/suiteDirs';
import { git, gitDaemon, makeProject } from './gitFixture';

const THREAD = 'thr_diff000000000001';

describe('git.diff: the uncommitted, branch and turn scopes of a thread folder', function () {
  this.timeout(60_000);
  const tempDir = suiteTempDirs();

  async function project() {
    const root = realpathSync(await tempDir('ats-git-diff-'));
    const { checkout } = makeProject(root);
    return { root, checkout, daemon: gitDaemon(path.join(root, 'data')) };
  }
  const byPath = (files: any[]) => Object.fromEntries(files.map((file) => [file.path, file]));

  it('uncommitted: staged, unstaged and untracked against HEAD, with a rename, a deletion and a binary file', async () => {
    const { checkout, daemon } = await project();
    writeFileSync(
      path.join(checkout, 'src', 'lines.txt'),
      ['line 1', 'line 2', 'changed 3', 'line 4'].join('\n') +
        '\n' +
        Array.from({ length: 26 }, (_, i) => `line ${i + 5}`).join('\n') +
        '\n',
    );
    renameSync(path.join(checkout, 'README.md'), path.join(checkout, 'README.txt'));
    git(checkout, 'add', '-A', 'README.md', 'README.txt');
    rmSync(path.join(checkout, 'run.sh'));
    writeFileSync(path.join(checkout, 'new file.txt'), 'one\ntwo\n');
    writeFileSync(path.join(checkout, 'image.bin'), Buffer.from([0, 159, 146, 150, 0, 1]));
    const result = await daemon.call('git.diff', { threadId: THREAD, path: path.join(checkout, 'src'), scope: 'uncommitted' });
    expect(result).to.deep.include({
      scope: 'uncommitted',
      base: git(checkout, 'rev-parse', 'HEAD').trim(),
      head: 'worktree',
      truncated: false,
    });
    const files = byPath(result.files);
    expect(Object.keys(files).sort()).to.deep.equal(['README.txt', 'image.bin', 'new file.txt', 'run.sh', 'src/lines.txt']);
    expect(files['README.txt']).to.deep.include({ status: 'renamed', oldPath: 'README.md', additions: 0, deletions: 0, hunks: [] });
    expect(files['run.sh']).to.deep.include({ status: 'deleted', deletions: 2, additions: 0 });
    expect(files['image.bin']).to.deep.include({ status: 'added', binary: true, hunks: [] });
    expect(files['new file.txt']).to.deep.equal({
      path: 'new file.txt',
      status: 'added',
      binary: false,
      additions: 2,
      deletions: 0,
      hunks: [
        {
          oldStart: 0,
          oldLines: 0,
          newStart: 1,
          newLines: 2,
          lines: [
            { kind: 'add', text: 'one' },
            { kind: 'add', text: 'two' },
          ],
        },
      ],
    });
    const lines = files['src/lines.txt'];
    expect(lines).to.deep.include({ status: 'modified', additions: 1, deletions: 1, binary: false });
    expect(lines.hunks[0]).to.deep.include({ oldStart: 1, oldLines: 6, newStart: 1, newLines: 6 });
    expect(lines.hunks[0].lines.slice(1, 4)).to.deep.equal([
      { kind: 'context', text: 'line 2' },
      { kind: 'del', text: 'line 3' },
      { kind: 'add', text: 'changed 3' },
    ]);
    expect(git(checkout, 'status', '--porcelain')).to.include('?? "new file.txt"'); // the user's index is untouched
  });

  it('uncommitted: a file moved without git is a rename; new files beside tracked edits come in path order', async () => {
    const { checkout, daemon } = await project();
    renameSync(path.join(checkout, 'src', 'lines.txt'), path.join(checkout, 'src', 'moved.txt'));
    const moved = await daemon.call('git.diff', { threadId: THREAD, path: checkout, scope: 'uncommitted' });
    expect(moved.files.map((file: any) => [file.status, file.oldPath, file.path])).to.deep.equal([
      ['renamed', 'src/lines.txt', 'src/moved.txt'],
    ]);
    renameSync(path.join(checkout, 'src', 'moved.txt'), path.join(checkout, 'src', 'lines.txt'));
    writeFileSync(path.join(checkout, 'README.md'), '# changed\n');
    writeFileSync(path.join(checkout, 'a-new.txt'), 'a\n');
    writeFileSync(path.join(checkout, 'z-new.txt'), 'z\n');
    const mixed = await daemon.call('git.diff', { threadId: THREAD, path: checkout, scope: 'uncommitted' });
    expect(mixed.files.map((file: any) => `${file.status} ${file.path} +${file.additions} -${file.deletions}`)).to.deep.equal([
      'modified README.md +1 -1',
      'added a-new.txt +1 -0',
      'added z-new.txt +1 -0',
    ]);
  });

  it('branch: commits and uncommitted work against the merge-base with baseRef', async () => {
    const { checkout, daemon } = await project();
    git(checkout, 'checkout', '-q', '-b', 'topic');
    writeFileSync(path.join(checkout, 'committed.txt'), 'c\n');
    git(checkout, 'add', '.');
    git(checkout, 'commit', '-q', '-m', 'topic work');
    git(checkout, 'checkout', '-q', 'main');
    writeFileSync(path.join(checkout, 'main-only.txt'), 'm\n');
    git(checkout, 'add', '.');
    git(checkout, 'commit', '-q', '-m', 'main moves on');
    git(checkout, 'checkout', '-q', 'topic');
    writeFileSync(path.join(checkout, 'wip.txt'), 'w\n');
    const result = await daemon.call('git.diff', { threadId: THREAD, path: checkout, scope: 'branch', baseRef: 'main' });
    expect(result.base).to.equal(git(checkout, 'merge-base', 'main', 'topic').trim());
    expect(result.files.map((file: any) => file.path).sort()).to.deep.equal(['committed.txt', 'wip.txt']);
    const refused = await daemon.call('git.diff', { threadId: THREAD, path: checkout, scope: 'branch' }).catch((error) => error.hostCode);
    expect(refused).to.equal('unknown_ref');
  });

  it('summarizes past its caps: a file over the per-file cap keeps its counts, files past the file cap are left out', async () => {
    const { root, checkout } = await project();
    writeFileSync(path.join(checkout, 'big.txt'), Array.from({ length: 50 }, (_, i) => `b${i}`).join('\n') + '\n');
    writeFileSync(path.join(checkout, 'small.txt'), 's\n');
    writeFileSync(path.join(checkout, 'zz.txt'), 'z\n');
    const limits = { ...DIFF_LIMITS, maxFiles: 2, maxLinesPerFile: 10 };
    const result = await gitDiff(
      { threadId: THREAD, path: checkout, scope: 'uncommitted' },
      { tempDir: path.join(root, 'tmp'), baseCommitOf: async () => null, limits },
    );
    expect(result.truncated).to.equal(true);
    expect(result.files.map((file) => file.path)).to.deep.equal(['big.txt', 'small.txt']);
    expect(result.files[0]).to.deep.include({ additions: 50, hunks: [], truncated: true });
    expect(result.files[1]!.hunks).to.have.length(1);
  });

  it('maxFiles: the first files of the whole diff in path order, each as the whole diff has it, and whether more changed', async () => {
    const { checkout, daemon } = await project();
    writeFileSync(path.join(checkout, 'src', 'lines.txt'), 'all new\n');
    rmSync(path.join(checkout, 'run.sh'));
    writeFileSync(path.join(checkout, 'a new.txt'), 'one\n');
    writeFileSync(path.join(checkout, 'README.md'), '# project\nmore\n');
    writeFileSync(path.join(checkout, 'zz-untracked.txt'), 'z\n');
    const ask = (maxFiles?: number) =>
      daemon.call('git.diff', { threadId: THREAD, path: checkout, scope: 'uncommitted', ...(maxFiles ? { maxFiles } : {}) });
    const whole = await ask();
    expect(whole.files.map((file: any) => file.path)).to.deep.equal([
      'README.md',
      'a new.txt',
      'run.sh',
      'src/lines.txt',
      'zz-untracked.txt',
    ]);
    for (let maxFiles = 1; maxFiles <= 6; maxFiles++) {
      const first = await ask(maxFiles);
      expect(first.files, `maxFiles ${maxFiles}`).to.deep.equal(whole.files.slice(0, maxFiles));
      expect(first.truncated, `maxFiles ${maxFiles}`).to.equal(maxFiles < 5);
      expect(first.base).to.equal(whole.base);
    }
  });

  it('refuses a folder outside git with not_a_git_repository and an unrecorded turn with not_found', async () => {
    const { root, checkout, daemon } = await project();
    expect(await daemon.call('git.diff', { threadId: THREAD, path: root, scope: 'uncommitted' }).catch((error) => error.hostCode)).to.equal(
      'not_a_git_repository',
    );
    expect(await daemon.call('git.diff', { threadId: THREAD, path: checkout, scope: 'turn' }).catch((error) => error.hostCode)).to.equal(
      'not_found',
    );
  });
});
