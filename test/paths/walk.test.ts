import { expect } from 'chai';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { lastValueFrom } from 'rxjs';
import { walk$ } from '../../src/paths/walk/walk';
import { createTempTree, removeTempTree } from '../helpers/temp/tree';

const listed = async (root: string): Promise<string[]> => {
  const listing = await lastValueFrom(walk$(root));
  return listing.entries.map((entry) => `${entry.kind === 'directory' ? 'd' : 'f'} ${entry.path}`).sort();
};

describe('walk$ (listing rules 1–3)', () => {
  let root: string;
  let socketServer: Server | undefined;

  beforeEach(() => {
    root = createTempTree({
      '.env': 'A=1',
      '.env.example': 'A=',
      '.github': { workflows: { 'ci.yml': 'on: push' } },
      '.git': { HEAD: 'ref: main', objects: { ab: { cdef: '' } } },
      src: {
        'main.ts': '',
        'with space.ts': '',
        'cafe\u0301.md': '',
        deep: { er: { est: { 'leaf.txt': '' } } },
      },
      vendored: { '.git': 'gitdir: ../.git/modules/vendored', 'lib.c': '', sub: { '.git': { config: '' } } },
      node_modules: { pkg: { 'index.js': '' } },
      packages: { a: { node_modules: { 'x.js': '' }, 'a.ts': '' } },
      notes: { node_modules: 'a file with that name is not a directory' },
      'link-to-main': { symlink: 'src/main.ts' },
      'link-to-src': { symlink: 'src' },
      loop: { symlink: '.' },
      dangling: { symlink: 'nowhere' },
      pipe: { fifo: true },
    });
  });

  afterEach(async () => {
    await new Promise<void>((resolve) => (socketServer ? socketServer.close(() => resolve()) : resolve()));
    socketServer = undefined;
    removeTempTree(root);
  });

  it('rule 1: lists every regular file and directory below the root', async () => {
    expect(await listed(root)).to.include.members(['d src', 'f src/main.ts', 'd src/deep/er/est', 'f src/deep/er/est/leaf.txt']);
  });

  it('rule 2: lists dot entries and descends into them', async () => {
    expect(await listed(root)).to.include.members([
      'f .env',
      'f .env.example',
      'd .github',
      'd .github/workflows',
      'f .github/workflows/ci.yml',
    ]);
  });

  it('rule 2: excludes .git at any depth, as a directory or as a gitlink file, with everything under it', async () => {
    const paths = await listed(root);
    expect(paths.filter((path) => path.split(/[ /]/).includes('.git'))).to.deep.equal([]);
    expect(paths).to.include.members(['d vendored', 'f vendored/lib.c', 'd vendored/sub']);
  });

  it('rule 3: neither lists nor descends into node_modules directories (a file of that name is listed)', async () => {
    const paths = await listed(root);
    expect(paths.filter((path) => path.includes('node_modules'))).to.deep.equal(['f notes/node_modules']);
    expect(paths).to.include.members(['d packages/a', 'f packages/a/a.ts']);
  });

  it('rule 3: skips symlinks (to files, to directories, loops, dangling) without hanging', async () => {
    const paths = await listed(root);
    for (const link of ['link-to-main', 'link-to-src', 'loop', 'dangling']) {
      expect(paths.filter((path) => path.slice(2).startsWith(link))).to.deep.equal([]);
    }
  });

  it('rule 1: never lists (or opens) FIFOs and sockets', async () => {
    const server = createServer();
    socketServer = server;
    await new Promise<void>((resolve) => server.listen(join(root, 'daemon.sock'), resolve));
    const paths = await listed(root);
    expect(paths.some((path) => path.endsWith('pipe') || path.endsWith('daemon.sock'))).to.equal(false);
  });

  it('keeps names exactly as stored: spaces and NFD are not altered', async () => {
    expect(await listed(root)).to.include.members(['f src/with space.ts', 'f src/cafe\u0301.md']);
  });

  it('gives the exact full listing for the fixture', async () => {
    expect(await listed(root)).to.deep.equal([
      'd .github',
      'd .github/workflows',
      'd notes',
      'd packages',
      'd packages/a',
      'd src',
      'd src/deep',
      'd src/deep/er',
      'd src/deep/er/est',
      'd vendored',
      'd vendored/sub',
      'f .env',
      'f .env.example',
      'f .github/workflows/ci.yml',
      'f notes/node_modules',
      'f packages/a/a.ts',
      'f src/cafe\u0301.md',
      'f src/deep/er/est/leaf.txt',
      'f src/main.ts',
      'f src/with space.ts',
      'f vendored/lib.c',
    ]);
  });

  it('follows a root that is itself a symlink (only entries below the root are skipped when linked)', async () => {
    const viaLink = await listed(join(root, 'link-to-src'));
    expect(viaLink).to.include.members(['f main.ts', 'd deep', 'f deep/er/est/leaf.txt']);
  });

  it('errors with not_found for a missing root and not_a_directory for a file root', async () => {
    const missing = await lastValueFrom(walk$(join(root, 'missing'))).catch((error) => error);
    expect(missing).to.include({ code: 'not_found' });
    const fileRoot = await lastValueFrom(walk$(join(root, '.env'))).catch((error) => error);
    expect(fileRoot).to.include({ code: 'not_a_directory' });
  });
});
