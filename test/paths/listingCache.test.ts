import { expect } from 'chai';
import { mkdirSync, renameSync, rmSync, statSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sharedDirectoryReader, type DirectoryReader } from '../../src/paths/walk/directoryReader';
import { createPathLister, type PathListerOptions } from '../../src/daemon/pathLister';
import type { ListPathsRequest } from '../../src/protocol/hostFiles';
import { ageDirectories, createTempTree, removeTempTree } from '../helpers/temp/tree';

/**
 * Keystroke searches reuse the walked tree; after any change they must answer exactly what a fresh walk
 * answers. Directories are aged, then left past a short racy window (a ctime cannot be aged: `utimes`
 * sets it to now), so the cache trusts them; each change then moves a stamp.
 */
const RACY_WINDOW_MS = 100;
const settle = () => new Promise((resolve) => setTimeout(resolve, RACY_WINDOW_MS + 50));
// These are the stamps' own tests (what serves before a watch covers the tree, or where none can):
// test/paths/liveListing.test.ts covers the watched listing.
const cachedLister = (options: PathListerOptions = {}) => createPathLister({ racyWindowMs: RACY_WINDOW_MS, watcher: null, ...options });

describe('cached listings (keystroke searches)', () => {
  let root: string;
  const at = (...parts: string[]) => join(root, ...parts);

  beforeEach(async () => {
    root = createTempTree({
      src: { 'index.ts': '', 'app.ts': '', util: { 'strings.ts': '', deep: { 'leaf.ts': '' } } },
      docs: { 'guide.md': '', linked: { symlink: '../src/util' } },
      'README.md': '',
      'latest.md': { symlink: 'README.md' },
    });
    ageDirectories(root);
    await settle();
  });
  afterEach(() => removeTempTree(root));

  const requests: Array<Omit<ListPathsRequest, 'path'>> = [
    { limit: 10_000 },
    { query: 'ts', limit: 10_000 },
    { query: 'src/', limit: 10_000, includeFiles: false },
  ];

  async function expectSameAsFreshWalk(cached: ReturnType<typeof createPathLister>): Promise<void> {
    const fresh = createPathLister({ cache: false });
    for (const request of requests) {
      expect(await cached.listPaths({ path: root, ...request })).to.deep.equal(await fresh.listPaths({ path: root, ...request }));
    }
  }

  const changes: Array<[what: string, change: () => void, present: string[], absent: string[]]> = [
    ['create a file deep down', () => writeFileSync(at('src/util/deep/new.ts'), ''), ['src/util/deep/new.ts'], []],
    ['create a directory with content', () => mkdirSync(at('src/util/fresh/more'), { recursive: true }), ['src/util/fresh/more'], []],
    ['delete a file', () => unlinkSync(at('src/util/strings.ts')), [], ['src/util/strings.ts']],
    ['delete a directory', () => rmSync(at('src/util'), { recursive: true }), [], ['src/util', 'src/util/deep/leaf.ts']],
    ['rename a file across directories', () => renameSync(at('src/app.ts'), at('docs/app.ts')), ['docs/app.ts'], ['src/app.ts']],
    ['rename a directory', () => renameSync(at('src/util'), at('src/helpers')), ['src/helpers/deep/leaf.ts'], ['src/util/deep/leaf.ts']],
    [
      'replace a file by a directory',
      () => {
        unlinkSync(at('src/app.ts'));
        mkdirSync(at('src/app.ts'));
        writeFileSync(at('src/app.ts/inner.ts'), '');
      },
      ['src/app.ts/inner.ts'],
      [],
    ],
    [
      'replace a directory by a file',
      () => {
        rmSync(at('src/util'), { recursive: true });
        writeFileSync(at('src/util'), '');
      },
      ['src/util'],
      ['src/util/strings.ts'],
    ],
    [
      'swap a file for a symlink',
      () => {
        unlinkSync(at('docs/guide.md'));
        symlinkSync('../README.md', at('docs/guide.md'));
      },
      [],
      ['docs/guide.md'],
    ],
    [
      'swap a directory for a symlink to it',
      () => {
        renameSync(at('src/util'), at('elsewhere'));
        symlinkSync('../elsewhere', at('src/util'));
      },
      ['elsewhere/deep/leaf.ts'],
      ['src/util', 'src/util/deep/leaf.ts'],
    ],
    [
      'replace a directory by another directory of the same name',
      () => {
        mkdirSync(at('other/deep'), { recursive: true });
        writeFileSync(at('other/deep/other.ts'), '');
        ageDirectories(at('other'));
        rmSync(at('src/util'), { recursive: true });
        renameSync(at('other'), at('src/util'));
      },
      ['src/util/deep/other.ts'],
      ['src/util/deep/leaf.ts', 'src/util/strings.ts'],
    ],
    [
      'replace a symlink to a directory by a real directory',
      () => {
        unlinkSync(at('docs/linked'));
        mkdirSync(at('docs/linked'));
        writeFileSync(at('docs/linked/real.ts'), '');
      },
      ['docs/linked', 'docs/linked/real.ts'],
      ['docs/linked/strings.ts'],
    ],
    [
      'replace a symlink to a file by a real file',
      () => {
        unlinkSync(at('latest.md'));
        writeFileSync(at('latest.md'), '');
      },
      ['latest.md'],
      [],
    ],
    [
      'retarget a symlink (still skipped, and nothing below it appears)',
      () => {
        unlinkSync(at('docs/linked'));
        symlinkSync('../src', at('docs/linked'));
      },
      [],
      ['docs/linked', 'docs/linked/index.ts'],
    ],
    [
      'replace a symlink by an old directory moved in (its own mtime settled)',
      () => {
        mkdirSync(at('staging/old/inner'), { recursive: true });
        writeFileSync(at('staging/old/inner/moved.ts'), '');
        ageDirectories(at('staging/old'));
        unlinkSync(at('docs/linked'));
        renameSync(at('staging/old'), at('docs/linked'));
        rmSync(at('staging'), { recursive: true });
      },
      ['docs/linked', 'docs/linked/inner/moved.ts'],
      [],
    ],
    [
      'add a node_modules directory (still excluded)',
      () => mkdirSync(at('src/node_modules/pkg'), { recursive: true }),
      [],
      ['src/node_modules'],
    ],
  ];

  for (const [what, change, present, absent] of changes) {
    it(`after "${what}" answers exactly what a fresh walk answers`, async () => {
      const cached = cachedLister();
      await expectSameAsFreshWalk(cached);
      change();
      await expectSameAsFreshWalk(cached);
      const paths = (await cached.listPaths({ path: root, limit: 10_000 })).paths.map((entry) => entry.path);
      expect(paths).to.include.members(present);
      for (const path of absent) expect(paths).not.to.include(path);
    });
  }

  it('re-reads only the directory that changed', async () => {
    const cached = cachedLister();
    await cached.listPaths({ path: root });
    const afterFirst = cached.directoriesRead(root);
    expect(afterFirst).to.equal(5); // root, src, src/util, src/util/deep, docs: each once
    await cached.listPaths({ path: root, query: 'a' });
    expect(cached.directoriesRead(root)).to.equal(afterFirst);
    writeFileSync(at('src/util/deep/new.ts'), '');
    const result = await cached.listPaths({ path: root, query: 'new' });
    expect(result.paths.map((entry) => entry.path)).to.deep.equal(['src/util/deep/new.ts']);
    expect(cached.directoriesRead(root)).to.equal(afterFirst + 1);
  });

  it('gives concurrent searches on one root the same answers as one after the other', async () => {
    const cached = cachedLister();
    const fresh = createPathLister({ cache: false });
    const queries = ['i', 'in', 'ind', undefined, 'u/d'];
    const together = await Promise.all(queries.map((query) => cached.listPaths({ path: root, query })));
    const alone = await Promise.all(queries.map((query) => fresh.listPaths({ path: root, query })));
    expect(together).to.deep.equal(alone);
  });

  describe('outside the racy window (a file server whose clock is a minute behind): only the stamp tells', () => {
    // Every directory time is then long before its read, so the racy rule trusts them all.
    const lagging = () => cachedLister({ clock: () => Date.now() + 60_000 });

    it('trusts unchanged directories and re-reads the one whose mtime and ctime moved', async () => {
      const cached = lagging();
      await expectSameAsFreshWalk(cached);
      const afterFirst = cached.directoriesRead(root);
      await cached.listPaths({ path: root });
      expect(cached.directoriesRead(root)).to.equal(afterFirst);
      writeFileSync(at('src/util/deep/new.ts'), '');
      expect((await cached.listPaths({ path: root, query: 'new' })).paths.map((entry) => entry.path)).to.deep.equal([
        'src/util/deep/new.ts',
      ]);
      expect(cached.directoriesRead(root)).to.equal(afterFirst + 1);
      await expectSameAsFreshWalk(cached);
    });

    it('re-reads a directory whose mtime was put back exactly (tar, rsync): its ctime moved', async () => {
      const cached = lagging();
      await cached.listPaths({ path: root });
      await cached.listPaths({ path: root }); // waits for the stamps of the first call
      const afterStamps = cached.directoriesRead(root);
      const { atime, mtime } = statSync(at('docs'));
      writeFileSync(at('docs/restored.md'), '');
      utimesSync(at('docs'), atime, mtime); // the very mtime the stamp holds
      expect((await cached.listPaths({ path: root, query: 'restored' })).paths.map((entry) => entry.path)).to.deep.equal([
        'docs/restored.md',
      ]);
      expect(cached.directoriesRead(root)).to.equal(afterStamps + 1);
      await expectSameAsFreshWalk(cached);
    });

    it('re-reads a directory replaced by another one of the same name (a new inode)', async () => {
      const cached = lagging();
      await cached.listPaths({ path: root });
      await cached.listPaths({ path: root });
      mkdirSync(at('staging/util/deep'), { recursive: true });
      writeFileSync(at('staging/util/deep/swapped.ts'), '');
      rmSync(at('src/util'), { recursive: true });
      renameSync(at('staging/util'), at('src/util'));
      await expectSameAsFreshWalk(cached);
      const paths = (await cached.listPaths({ path: root, limit: 10_000 })).paths.map((entry) => entry.path);
      expect(paths).to.include('src/util/deep/swapped.ts');
      expect(paths).not.to.include('src/util/strings.ts');
    });
  });

  it('sees a change made between a read and its stamp although the mtime was put back (tar, rsync)', async () => {
    // Stamps are taken after the answer, in the background: hold them until the change is made, so the
    // stamp shows the changed directory with its old mtime; only its ctime, past the read, tells.
    const shared = sharedDirectoryReader();
    let releaseStamps = (): void => undefined;
    const stampsReleased = new Promise<void>((resolve) => (releaseStamps = resolve));
    const reader: DirectoryReader = {
      parallelism: shared.parallelism,
      read: (paths) => shared.read(paths),
      stat: async (paths) => {
        await stampsReleased;
        return shared.stat(paths);
      },
    };
    const cached = cachedLister({ reader });
    await cached.listPaths({ path: root });
    const { atime, mtime } = statSync(at('docs'));
    writeFileSync(at('docs/extracted.md'), '');
    utimesSync(at('docs'), atime, mtime);
    releaseStamps();
    expect((await cached.listPaths({ path: root, query: 'extracted' })).paths.map((entry) => entry.path)).to.deep.equal([
      'docs/extracted.md',
    ]);
    await expectSameAsFreshWalk(cached);
  });

  it('re-reads a directory changed within the racy window even though its stamp looks settled', async () => {
    const cached = cachedLister();
    writeFileSync(at('docs/racy.md'), ''); // docs' mtime is now: within the window of the first read
    await cached.listPaths({ path: root });
    const afterFirst = cached.directoriesRead(root);
    await cached.listPaths({ path: root });
    expect(cached.directoriesRead(root)).to.equal(afterFirst + 1);
  });
});
