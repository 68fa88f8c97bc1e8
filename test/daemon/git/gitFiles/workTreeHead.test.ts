import { expect } from 'chai';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readWorkTreeHead } from '../../../../src/daemon/git/gitFiles/workTreeHead';
import { suiteTempDirs } from '../../../helpers/temp/suiteDirs';
import { git } from '../gitFixture';

/** What git itself says of the folder: its work tree and HEAD commit. */
const gitSays = (folder: string) => ({
  topLevel: git(folder, 'rev-parse', '--show-toplevel').trim(),
  head: git(folder, 'rev-parse', 'HEAD').trim(),
});

describe("a work tree's HEAD read from git's files, as git itself answers it (no git process)", function () {
  this.timeout(30_000);
  const tempDir = suiteTempDirs();

  async function repo() {
    const root = realpathSync(await tempDir('ats-read-head-'));
    const checkout = path.join(root, 'checkout');
    mkdirSync(path.join(checkout, 'src', 'deep'), { recursive: true });
    git(checkout, 'init', '-q', '-b', 'main');
    writeFileSync(path.join(checkout, 'src', 'a.txt'), 'a\n');
    git(checkout, 'add', '-A');
    git(checkout, 'commit', '-q', '-m', 'first');
    git(checkout, 'commit', '-q', '--allow-empty', '-m', 'second');
    return { root, checkout };
  }

  it('a checkout and a folder deep in it (loose ref), then with its refs packed', async () => {
    const { checkout } = await repo();
    expect(readWorkTreeHead(checkout)).to.deep.equal(gitSays(checkout));
    expect(readWorkTreeHead(path.join(checkout, 'src', 'deep'))).to.deep.equal(gitSays(checkout));
    git(checkout, 'pack-refs', '--all');
    expect(readWorkTreeHead(checkout)).to.deep.equal(gitSays(checkout));
  });

  it('a linked worktree on its own branch, and one detached at an older commit', async () => {
    const { root, checkout } = await repo();
    const linked = path.join(root, 'linked');
    git(checkout, 'worktree', 'add', '-q', '-b', 'topic', linked, 'HEAD~1');
    expect(readWorkTreeHead(linked)).to.deep.equal(gitSays(linked));
    expect(readWorkTreeHead(linked)!.head).to.not.equal(gitSays(checkout).head);
    const detached = path.join(root, 'detached');
    git(checkout, 'worktree', 'add', '-q', '--detach', detached, 'HEAD~1');
    expect(readWorkTreeHead(detached)).to.deep.equal(gitSays(detached));
  });

  it('leaves to git what is not plain: an unborn branch, core.worktree, a folder outside any repository', async () => {
    const { root, checkout } = await repo();
    const unborn = path.join(root, 'unborn');
    mkdirSync(unborn);
    git(unborn, 'init', '-q', '-b', 'main');
    expect(readWorkTreeHead(unborn)).to.equal(null);
    git(checkout, 'config', 'core.worktree', checkout);
    expect(readWorkTreeHead(checkout)).to.equal(null);
    expect(readWorkTreeHead('/')).to.equal(null);
  });
});
