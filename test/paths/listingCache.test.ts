import { expect } from 'chai';
import { mkdirSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createPathLister } from '../../src/paths/pathLister';
import type { ListPathsRequest } from '../../src/protocol/hostFiles';
import { ageDirectories, createTempTree, removeTempTree } from '../helpers/tempTree';

/**
 * Keystroke searches reuse the walked tree; after any change they must answer exactly what a fresh walk
 * answers. Directories are aged first so the cache trusts them; each change then moves a stamp.
 */
describe('cached listings (keystroke searches)', () => {
  let root: string;
  const at = (...parts: string[]) => join(root, ...parts);

  beforeEach(() => {
    root = createTempTree({
      src: { 'index.ts': '', 'app.ts': '', util: { 'strings.ts': '', deep: { 'leaf.ts': '' } } },
      docs: { 'guide.md': '' },
      'README.md': '',
    });
    ageDirectories(root);
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
    ['add a node_modules directory (still excluded)', () => mkdirSync(at('src/node_modules/pkg'), { recursive: true }), [], ['src/node_modules']],
  ];

  for (const [what, change, present, absent] of changes) {
    it(`after "${what}" answers exactly what a fresh walk answers`, async () => {
      const cached = createPathLister();
      await expectSameAsFreshWalk(cached);
      change();
      await expectSameAsFreshWalk(cached);
      const paths = (await cached.listPaths({ path: root, limit: 10_000 })).paths.map((entry) => entry.path);
      expect(paths).to.include.members(present);
      for (const path of absent) expect(paths).not.to.include(path);
    });
  }

  it('re-reads only the directory that changed', async () => {
    const cached = createPathLister();
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
    const cached = createPathLister();
    const fresh = createPathLister({ cache: false });
    const queries = ['i', 'in', 'ind', undefined, 'u/d'];
    const together = await Promise.all(queries.map((query) => cached.listPaths({ path: root, query })));
    const alone = await Promise.all(queries.map((query) => fresh.listPaths({ path: root, query })));
    expect(together).to.deep.equal(alone);
  });

  it('re-reads a directory changed within the racy window even though its stamp looks settled', async () => {
    const cached = createPathLister();
    writeFileSync(at('docs/racy.md'), ''); // docs' mtime is now: within the window of the first read
    await cached.listPaths({ path: root });
    const afterFirst = cached.directoriesRead(root);
    await cached.listPaths({ path: root });
    expect(cached.directoriesRead(root)).to.equal(afterFirst + 1);
  });
});
