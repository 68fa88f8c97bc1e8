import { expect } from 'chai';
import { join } from 'node:path';
import { browseDirectory } from '../../src/files/browseDirectory';
import { createTempTree, removeTempTree } from '../helpers/temp/tree';

describe('browseDirectory (host.browse_directory)', () => {
  let root: string;
  beforeEach(() => {
    root = createTempTree({
      projects: { app: { 'deep.txt': '' } },
      'notes.md': '',
      '.config': {},
      '.env': '',
      node_modules: { pkg: {} },
      'linked-projects': { symlink: 'projects' },
      'linked-notes': { symlink: 'notes.md' },
      broken: { symlink: 'nowhere' },
      pipe: { fifo: true },
    });
  });
  afterEach(() => removeTempTree(root));

  it('lists one level: skips dot names and node_modules, follows symlinks, drops broken links and FIFOs', async () => {
    expect(await browseDirectory({ path: root })).to.deep.equal({
      path: root,
      entries: [
        { kind: 'directory', name: 'linked-projects', path: join(root, 'linked-projects') },
        { kind: 'directory', name: 'projects', path: join(root, 'projects') },
        { kind: 'file', name: 'linked-notes', path: join(root, 'linked-notes') },
        { kind: 'file', name: 'notes.md', path: join(root, 'notes.md') },
      ],
    });
  });

  it('browses through a symlinked directory', async () => {
    const result = await browseDirectory({ path: join(root, 'linked-projects') });
    expect(result.entries.map((entry) => entry.name)).to.deep.equal(['app']);
  });

  it('answers not_found and not_a_directory', async () => {
    expect(await browseDirectory({ path: join(root, 'nope') }).catch((error) => error)).to.include({ code: 'not_found' });
    expect(await browseDirectory({ path: join(root, 'notes.md') }).catch((error) => error)).to.include({ code: 'not_a_directory' });
  });
});
