import { expect } from 'chai';
import { realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { worktreeTree } from '../../../src/daemon/git/tempIndex';
import { suiteTempDirs } from '../../helpers/temp/suiteDirs';
import { git } from './gitFixture';

/**
 * The service reads the files on disk through a copy of the user's index. Git trusts an entry's stat data
 * unless the file changed in the same second the index was written ("racily clean"), which it judges by the
 * index file's own mtime: a copy must keep it, or a same-size edit made in that second reads as no change.
 */
describe('a copy of the index reads the files as git reads them', function () {
  this.timeout(20_000);
  const tempDir = suiteTempDirs();

  it('a same-size edit made in the second the index was written is in the tree of the files on disk', async () => {
    const root = realpathSync(await tempDir('ats-temp-index-'));
    const repo = path.join(root, 'repo');
    git(root, 'init', '-q', '-b', 'main', repo);
    writeFileSync(path.join(repo, 'note.txt'), 'aaa\n');
    git(repo, 'add', 'note.txt');
    writeFileSync(path.join(repo, 'note.txt'), 'bbb\n'); // same size, same second as the index
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // the copy is made in a later second
    const tree = await worktreeTree(repo, path.join(root, 'tmp'));
    expect(git(repo, 'cat-file', '-p', `${tree}:note.txt`)).to.equal('bbb\n');
  });
});
