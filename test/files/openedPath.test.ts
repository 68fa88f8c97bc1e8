import { expect } from 'chai';
import { realpathSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { openedRealPath } from '../../src/files/openedPath';
import { createTempTree, removeTempTree } from '../helpers/temp/tree';

const noProcfs = async () => null;

describe('openedRealPath: where the file a read opened really is (issue 30)', () => {
  let root: string;
  beforeEach(() => {
    root = realpathSync(createTempTree({ 'a.txt': 'a', 'outside.txt': 'outside', 'link.txt': { symlink: 'a.txt' } }));
  });
  afterEach(() => removeTempTree(root));

  it('names the file the descriptor holds, even after the path was swapped for a link elsewhere (Linux)', async () => {
    const handle = await open(join(root, 'link.txt'), 'r');
    try {
      symlinkSync(join(root, 'outside.txt'), join(root, 'swap'));
      renameSync(join(root, 'swap'), join(root, 'link.txt'));
      expect(await openedRealPath(handle, join(root, 'link.txt'))).to.equal(join(root, 'a.txt'));
    } finally {
      await handle.close();
    }
  });

  it('without procfs (macOS): the path resolved again when it still leads to the file opened, else null', async () => {
    const handle = await open(join(root, 'link.txt'), 'r');
    try {
      expect(await openedRealPath(handle, join(root, 'link.txt'), noProcfs)).to.equal(join(root, 'a.txt'));
      symlinkSync(join(root, 'outside.txt'), join(root, 'swap'));
      renameSync(join(root, 'swap'), join(root, 'link.txt'));
      expect(await openedRealPath(handle, join(root, 'link.txt'), noProcfs), 'the link now leads to another file').to.equal(null);
    } finally {
      await handle.close();
    }
  });

  it('without procfs: a file replaced under the same name after the open is not the file opened', async () => {
    const handle = await open(join(root, 'a.txt'), 'r');
    try {
      writeFileSync(join(root, 'new.txt'), 'new');
      renameSync(join(root, 'new.txt'), join(root, 'a.txt'));
      expect(await openedRealPath(handle, join(root, 'a.txt'), noProcfs)).to.equal(null);
    } finally {
      await handle.close();
    }
  });
});
