import { expect } from 'chai';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readHeadFiles } from '../../../../src/daemon/git/gitFiles/headFiles';
import { git, initRepo } from '../../../helpers/git/gitRepo';
import { suiteTempDirs } from '../../../helpers/temp/suiteDirs';

/** What git itself says of a work tree's HEAD: the answer readHeadFiles must give (or none at all). */
function gitSays(folder: string) {
  const [gitDir, commonDir, indexFile, commit, symbolic] = git(
    folder,
    'rev-parse',
    '--path-format=absolute',
    '--git-dir',
    '--git-common-dir',
    '--git-path',
    'index',
    'HEAD^{commit}',
    '--symbolic-full-name',
    'HEAD',
  ).split('\n') as [string, string, string, string, string];
  const branch = symbolic.startsWith('refs/heads/') ? symbolic.slice('refs/heads/'.length) : null;
  return { gitDir, commonDir: realpathSync(commonDir), indexFile, ref: branch ? symbolic : 'HEAD', branch, commit };
}

describe('readHeadFiles: HEAD read from git’s files as git reads it, or no answer (bench:ship, issue 39)', () => {
  const tempDir = suiteTempDirs();

  async function repo() {
    const root = realpathSync(await tempDir('ats-head-files-'));
    const checkout = path.join(root, 'project');
    mkdirSync(checkout);
    initRepo(checkout, { 'README.md': '# project\n', 'src/app.ts': 'export const app = 1;\n' });
    return { root, checkout };
  }

  it('answers what git answers: a branch, a detached HEAD, a branch only in packed-refs, a linked worktree', async () => {
    const { root, checkout } = await repo();
    expect(readHeadFiles(checkout)).to.deep.equal(gitSays(checkout));
    git(checkout, 'switch', '-q', '-c', 'feature/deep');
    git(checkout, 'pack-refs', '--all');
    expect(readHeadFiles(checkout)).to.deep.include({ branch: 'feature/deep' });
    expect(readHeadFiles(checkout)).to.deep.equal(gitSays(checkout));
    const linked = path.join(root, 'linked');
    git(checkout, 'worktree', 'add', '-q', '-b', 'side', linked);
    expect(readHeadFiles(linked)).to.deep.equal(gitSays(linked));
    git(checkout, 'switch', '-q', '--detach');
    expect(readHeadFiles(checkout)).to.deep.include({ ref: 'HEAD', branch: null });
    expect(readHeadFiles(checkout)).to.deep.equal(gitSays(checkout));
  });

  it('gives no answer (git is asked) below the top of a work tree, outside git, on an unborn branch, or with a symbolic ref', async () => {
    const { root, checkout } = await repo();
    expect(readHeadFiles(path.join(checkout, 'src'))).to.equal(null);
    expect(readHeadFiles(root)).to.equal(null);
    git(checkout, 'switch', '-q', '--orphan', 'empty');
    expect(readHeadFiles(checkout)).to.equal(null);
    git(checkout, 'switch', '-q', 'main');
    git(checkout, 'symbolic-ref', 'refs/heads/alias', 'refs/heads/main');
    git(checkout, 'symbolic-ref', 'HEAD', 'refs/heads/alias');
    expect(readHeadFiles(checkout)).to.equal(null);
  });

  it('reads a SHA-256 repository’s longer names', async () => {
    const root = realpathSync(await tempDir('ats-head-files-'));
    git(root, 'init', '-q', '--object-format=sha256', '-b', 'main');
    writeFileSync(path.join(root, 'a.txt'), 'a\n');
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'first');
    const head = readHeadFiles(root);
    expect(head?.commit).to.have.length(64);
    expect(head).to.deep.equal(gitSays(root));
  });
});
