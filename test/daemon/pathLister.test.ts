import { expect } from 'chai';
import { join } from 'node:path';
import { PATH_LISTING_CONFIG } from '../../src/protocol/hostFiles';
import { createPathLister } from '../../src/daemon/pathLister';
import type { ListPathsRequest } from '../../src/protocol/hostFiles';
import { createTempTree, removeTempTree, writeTree, type TreeSpec } from '../helpers/temp/tree';
import { createHostDispatcher, type HostHandlers } from '../../src/daemon/hostDispatcher';
import type { PathLister } from '../../src/daemon/pathLister';

/** Sends one request to a daemon dispatcher whose path commands are `lister`'s, and resolves with its answer. */
function dispatchTo(lister: PathLister) {
  const dispatch = createHostDispatcher({
    'host.list_paths': (params) => lister.listPaths(params),
    'host.list_files': (params) => lister.listFiles(params),
  } as Partial<HostHandlers> as HostHandlers);
  return async (method: string, params: unknown) =>
    (await dispatch({ jsonrpc: '2.0', id: 1, method, params })) as { error?: { code: number; message: string; data?: unknown } };
}

describe('createPathLister().listPaths (host.list_paths)', () => {
  let root: string;
  const lister = createPathLister({ watcher: null });
  const list = (request: Omit<ListPathsRequest, 'path'>) => lister.listPaths({ path: root, ...request });

  beforeEach(() => {
    root = createTempTree({
      '.env': '',
      '.env.example': '',
      '.github': { workflows: { 'ci.yml': '' } },
      src: { 'index.ts': '', 'reindex.ts': '', 'router.js': '', lib: { 'user-router-helpers.js': '' } },
      'README.md': '',
    });
  });
  afterEach(() => removeTempTree(root));

  it('rule 4: without a query lists every entry with score 0, no positions, path ascending', async () => {
    const result = await list({});
    expect(result.truncated).to.equal(false);
    expect(result.paths.map((entry) => entry.path)).to.deep.equal([
      '.env',
      '.env.example',
      '.github',
      '.github/workflows',
      '.github/workflows/ci.yml',
      'README.md',
      'src',
      'src/index.ts',
      'src/lib',
      'src/lib/user-router-helpers.js',
      'src/reindex.ts',
      'src/router.js',
    ]);
    expect(result.paths.every((entry) => entry.score === 0 && entry.positions.length === 0)).to.equal(true);
    expect(result.paths[2]).to.deep.equal({ kind: 'directory', path: '.github', name: '.github', score: 0, positions: [] });
  });

  describe('rule 4: a query ranks what a person expects first', () => {
    const cases: Array<[query: string, first: string, below: string]> = [
      ['index', 'src/index.ts', 'src/reindex.ts'],
      ['router', 'src/router.js', 'src/lib/user-router-helpers.js'],
      ['.env', '.env', '.env.example'],
      ['readme', 'README.md', ''],
      ['workflows', '.github/workflows', ''],
    ];
    for (const [query, first, below] of cases) {
      it(`${query} → ${first} first`, async () => {
        const paths = (await list({ query })).paths.map((entry) => entry.path);
        expect(paths[0]).to.equal(first);
        if (below) expect(paths).to.include(below);
      });
    }
  });

  it('rule 2: dot entries are hits for a query matching their name (`.github/workflows/ci.yml`, `.env`)', async () => {
    expect((await list({ query: 'ci.yml' })).paths.map((entry) => entry.path)).to.include('.github/workflows/ci.yml');
    expect((await list({ query: '.env' })).paths.map((entry) => entry.path)).to.include('.env');
  });

  it('a query with `/` matches the relative path; positions stay inside the name', async () => {
    const [top] = (await list({ query: 'src/index' })).paths;
    expect(top).to.deep.include({ path: 'src/index.ts', name: 'index.ts', positions: [0, 1, 2, 3, 4] });
  });

  it('rule 5: truncated is true only when entries were dropped', async () => {
    expect(await list({ limit: 12 })).to.include({ truncated: false });
    const cut = await list({ limit: 11 });
    expect(cut.truncated).to.equal(true);
    expect(cut.paths).to.have.length(11);
    expect((await list({ query: 'router', limit: 2 })).truncated).to.equal(false);
    expect((await list({ query: 'router', limit: 1 })).truncated).to.equal(true);
  });

  it('includeFiles / includeDirectories select the kinds, and limit counts only those', async () => {
    const directories = await list({ includeFiles: false });
    expect(directories.paths.map((entry) => entry.path)).to.deep.equal(['.github', '.github/workflows', 'src', 'src/lib']);
    const files = await list({ includeDirectories: false, limit: 8 });
    expect(files).to.include({ truncated: false });
    expect(files.paths.every((entry) => entry.kind === 'file')).to.equal(true);
  });

  // Order independence is a property of the ranking stages: `rankingOrder.property.test.ts` feeds them the
  // same entries in random orders (a file system's `readdir` order cannot be chosen from here).

  describe('a `/` in the query matches a path separator, and what follows it a segment start', () => {
    const treeOfFiles = (paths: string[]): TreeSpec => {
      const tree: TreeSpec = {};
      for (const path of paths) {
        const parts = path.split('/');
        let level = tree;
        for (const part of parts.slice(0, -1)) level = (level[part] ??= {}) as TreeSpec;
        level[parts.at(-1)!] = '';
      }
      return tree;
    };

    const cases: Array<[query: string, first: string, below: string[], why: string]> = [
      ['ui/b', 'web/ui/button.tsx', ['app/gui/button.tsx'], 'the folder `ui`, not one that merely ends in `ui`'],
      ['src/ix', 'src/index.ts', ['src/fix.ts', 'srcfoo/xindex.ts'], 'the run `src/` + `i` at the start of `index.ts`'],
      ['c/m', 'components/Menu.tsx', ['scripts/cm.js', 'src/components/form.ts'], 'a segment starting with `c`, then one with `m`'],
    ];
    for (const [query, first, below, why] of cases) {
      it(`${query} → ${first} above ${below.join(', ')} (${why})`, async () => {
        writeTree(root, treeOfFiles([first, ...below]));
        const paths = (await list({ query, includeDirectories: false })).paths.map((entry) => entry.path);
        expect(paths[0]).to.equal(first);
        for (const path of below) expect(paths).to.include(path);
      });
    }
  });

  it(`defaults: limit ${PATH_LISTING_CONFIG.defaultLimit}, files and directories included`, async () => {
    writeTree(join(root, 'many'), Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`f${i}.txt`, ''])));
    const result = await list({});
    expect(result.paths).to.have.length(PATH_LISTING_CONFIG.defaultLimit);
    expect(result.truncated).to.equal(true);
    expect(new Set(result.paths.map((entry) => entry.kind))).to.deep.equal(new Set(['file', 'directory']));
  });

  describe("refuses bad input as invalid params naming the problem, at the daemon's gate", () => {
    // The dispatcher checks the contract's schema (-32602, the field in the issue path); the lister checks
    // only what the schema cannot say (invalid_params). The host link maps both to 400 invalid_params.
    const cases: Array<[what: string, request: Record<string, unknown>, mentions: string]> = [
      ['limit 0', { limit: 0 }, 'limit'],
      [`limit above ${PATH_LISTING_CONFIG.maxLimit}`, { limit: PATH_LISTING_CONFIG.maxLimit + 1 }, 'limit'],
      ['a fractional limit', { limit: 2.5 }, 'limit'],
      [`a query longer than ${PATH_LISTING_CONFIG.maxQueryLength}`, { query: 'x'.repeat(PATH_LISTING_CONFIG.maxQueryLength + 1) }, 'query'],
      ['a relative root', { path: 'relative/dir' }, 'path'],
      ['rule 7: no parameter changes rules 2 and 3', { includeHidden: true }, 'includeHidden'],
      ['rule 7: no exclude parameter', { exclude: ['.git'] }, 'exclude'],
    ];
    for (const [what, request, mentions] of cases) {
      it(what, async () => {
        const answer = await dispatchTo(lister)('host.list_paths', { path: root, ...request });
        expect(answer.error?.code, JSON.stringify(answer)).to.equal(-32602);
        expect(JSON.stringify(answer.error?.data)).to.contain(mentions);
      });
    }

    it('nothing to list', async () => {
      const answer = await dispatchTo(lister)('host.list_paths', { path: root, includeFiles: false, includeDirectories: false });
      expect(answer.error?.data).to.deep.equal({ hostCode: 'invalid_params' });
      expect(answer.error?.message).to.contain('includeFiles');
    });
  });

  it('answers not_found for a missing root and not_a_directory for a file', async () => {
    const missing = await lister.listPaths({ path: join(root, 'nope') }).catch((error) => error);
    expect(missing).to.include({ code: 'not_found' });
    const file = await lister.listPaths({ path: join(root, 'README.md') }).catch((error) => error);
    expect(file).to.include({ code: 'not_a_directory' });
  });
});

describe('createPathLister().listFiles (host.list_files)', () => {
  it('refuses out-of-range input as invalid params at the gate, like host.list_paths', async () => {
    const lister = createPathLister({ watcher: null });
    for (const request of [
      { limit: 0 },
      { limit: PATH_LISTING_CONFIG.maxLimit + 1 },
      { query: 'x'.repeat(PATH_LISTING_CONFIG.maxQueryLength + 1) },
      { includeDirectories: true },
    ]) {
      const answer = await dispatchTo(lister)('host.list_files', { path: '/tmp', ...request });
      expect(answer.error?.code, JSON.stringify(request)).to.equal(-32602);
    }
  });

  it('uses the same walk and ranking, files only', async () => {
    const root = createTempTree({ src: { 'index.ts': '', index: { 'a.ts': '' } }, '.env': '' });
    try {
      const lister = createPathLister({ watcher: null });
      const all = await lister.listFiles({ path: root });
      expect(all).to.deep.equal({
        files: [
          { kind: 'file', path: '.env', name: '.env', score: 0, positions: [] },
          { kind: 'file', path: 'src/index.ts', name: 'index.ts', score: 0, positions: [] },
          { kind: 'file', path: 'src/index/a.ts', name: 'a.ts', score: 0, positions: [] },
        ],
        truncated: false,
      });
      const hits = await lister.listFiles({ path: root, query: 'index', limit: 1 });
      expect(hits.files.map((entry) => entry.path)).to.deep.equal(['src/index.ts']);
      expect(hits.truncated).to.equal(false);
    } finally {
      removeTempTree(root);
    }
  });
});
