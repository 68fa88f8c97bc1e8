import { expect } from 'chai';
import { appendFileSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createPathLister, type PathLister } from '../../src/daemon/pathLister';
import { pathListerOptionsOf } from '../../src/daemon/localHostFiles';
import { WATCH_AFTER_PAUSE_MS } from '../../src/paths/cache/startOncePaused';
import { createTempTree, removeTempTree, type TreeSpec } from '../helpers/temp/tree';

/**
 * Issue 29: quick-open ranks what people want first. Paths the project's `.gitignore` files ignore (root and
 * nested, negations included, and the root's `.git/info/exclude`) and the service's own data folder are still
 * listed and findable (rules 1–3, 6), but rank after paths that are not ignored, at an equal or nearly equal
 * match: with a query by a lower score (rule 4: by descending score), without one after them in path order.
 */
const DEADLINE_MS = 10_000;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A clone with a built `dist/`, as in the issue. */
const CLONE: TreeSpec = {
  '.gitignore': 'dist/\n*.map\n',
  'README.md': '# the project',
  docs: { 'README.md': '# docs' },
  src: { 'threadSegment.ts': '', 'index.ts': '' },
  dist: { a: { 'readme.js': '', 'readme.js.map': '', 'threadSegment.js': '', 'threadSegment.js.map': '' } },
  '.git': { HEAD: '', info: { exclude: 'scratch.txt\n' } },
  'scratch.txt': '',
};

describe('quick-open ranks ignored paths last (issue 29)', () => {
  let root: string;
  let lister: PathLister;

  afterEach(async () => {
    await lister?.close();
    if (root) removeTempTree(root);
  });

  const list = async (query?: string, limit = 100) => (await lister.listPaths({ path: root, query, limit })).paths;

  it('rule 4: for "readme" the READMEs come first, dist/ after them, with a lower score', async () => {
    root = createTempTree(CLONE, 'paths-ignored-');
    lister = createPathLister({ watcher: null });
    const hits = await list('readme');
    expect(hits.map((hit) => hit.path)).to.deep.equal([
      'README.md',
      'docs/README.md',
      'dist/a/readme.js',
      'dist/a/readme.js.map',
      'src/threadSegment.ts', // thREADsegMEnt: a weak match, after the built exact ones…
      'dist/a/threadSegment.js', // …and before its own built copies
      'dist/a/threadSegment.js.map',
    ]);
    expect(hits[2]!.score).to.be.lessThan(hits[1]!.score);
    const scores = hits.map((hit) => hit.score);
    expect(scores).to.deep.equal([...scores].sort((a, b) => b - a)); // still by descending score
    expect(hits[2]!.positions).to.deep.equal([0, 1, 2, 3, 4, 5]); // the matched letters are marked as before
  });

  it('rule 4: an equal match in a tracked file ranks before the built copy (threadSegment.ts before dist/…/threadSegment.js)', async () => {
    root = createTempTree(CLONE, 'paths-ignored-');
    lister = createPathLister({ watcher: null });
    const hits = (await list('threadsegment')).map((hit) => hit.path);
    expect(hits[0]).to.equal('src/threadSegment.ts');
    expect(hits.slice(1)).to.have.members(['dist/a/threadSegment.js', 'dist/a/threadSegment.js.map']);
  });

  it('rule 4: without a query, what is not ignored comes first in path order, then what is ignored', async () => {
    root = createTempTree(CLONE, 'paths-ignored-');
    lister = createPathLister({ watcher: null });
    expect((await list()).map((hit) => hit.path)).to.deep.equal([
      '.gitignore',
      'README.md',
      'docs',
      'docs/README.md',
      'src',
      'src/index.ts',
      'src/threadSegment.ts',
      'dist',
      'dist/a',
      'dist/a/readme.js',
      'dist/a/readme.js.map',
      'dist/a/threadSegment.js',
      'dist/a/threadSegment.js.map',
      'scratch.txt', // .git/info/exclude
    ]);
    // With a small limit the ignored ones are what is left out.
    const firstThree = await lister.listPaths({ path: root, limit: 3 });
    expect(firstThree.paths.map((hit) => hit.path)).to.deep.equal(['.gitignore', 'README.md', 'docs']);
    expect(firstThree.truncated).to.equal(true);
  });

  it('rules 1–3 and 6: every ignored file is still listed, and found by its name', async () => {
    root = createTempTree(CLONE, 'paths-ignored-');
    lister = createPathLister({ watcher: null });
    const listed = (await list(undefined, 10_000)).map((hit) => hit.path);
    for (const path of ['dist/a/readme.js.map', 'dist/a/threadSegment.js', 'scratch.txt']) {
      expect(listed).to.include(path);
      const name = path.slice(path.lastIndexOf('/') + 1);
      expect((await list(name)).map((hit) => hit.path)[0], `query ${name}`).to.equal(path);
    }
  });

  it('nested .gitignore files: a deeper one adds rules, and its negation (!keep.js) re-includes a file', async () => {
    root = createTempTree(
      {
        '.gitignore': '*.log\n',
        'a.log': '',
        'app.ts': '',
        pkg: {
          '.gitignore': '*.js\n!keep.js\n/out/\n',
          'keep.js': '',
          'drop.js': '',
          'b.log': '',
          out: { 'x.ts': '' },
          deep: { 'drop.js': '', 'keep.js': '', out: { 'y.ts': '' } },
        },
        other: { 'drop.js': '' },
      },
      'paths-ignored-nested-',
    );
    lister = createPathLister({ watcher: null });
    expect((await list()).map((hit) => hit.path)).to.deep.equal([
      '.gitignore',
      'app.ts',
      'other',
      'other/drop.js', // the rule is pkg's own
      'pkg',
      'pkg/.gitignore',
      'pkg/deep',
      'pkg/deep/keep.js',
      'pkg/deep/out', // `/out/` is anchored to pkg/
      'pkg/deep/out/y.ts',
      'pkg/keep.js',
      'a.log',
      'pkg/b.log',
      'pkg/deep/drop.js',
      'pkg/drop.js',
      'pkg/out',
      'pkg/out/x.ts',
    ]);
  });

  it("the service's data folder inside a project (ATS_DATA_DIR=./.data) ranks last, .data/token included", async () => {
    root = createTempTree({ src: { 'token.ts': '' }, '.data': { token: 'secret', events: { 'thr_1.db': '' } } }, 'paths-ignored-data-');
    lister = createPathLister({ watcher: null, ...pathListerOptionsOf({ dataDir: join(root, '.data') }, () => undefined) });
    expect((await list('tok')).map((hit) => hit.path)).to.deep.equal(['src/token.ts', '.data/token']);
    expect((await list()).map((hit) => hit.path)).to.deep.equal([
      'src',
      'src/token.ts',
      '.data',
      '.data/events',
      '.data/events/thr_1.db',
      '.data/token',
    ]);
  });

  it('a .gitignore edited in place is picked up by the next revalidation by stamps', async () => {
    root = createTempTree(CLONE, 'paths-ignored-');
    lister = createPathLister({ watcher: null, staleWhileWatchStartsMs: 0 });
    expect((await list('index')).map((hit) => hit.score)).to.have.length(1);
    const before = (await list('index'))[0]!.score;
    appendFileSync(join(root, '.gitignore'), 'src/\n'); // the folder's stamps stay as they were
    const after = await list('index');
    expect(after.map((hit) => hit.path)).to.deep.equal(['src/index.ts']);
    expect(after[0]!.score).to.be.lessThan(before);
  });

  it('a watched root picks up a changed .gitignore: the live tree re-marks what it ignores', async () => {
    root = createTempTree(CLONE, 'paths-ignored-');
    lister = createPathLister({ idleMs: 60_000 });
    const order = async () => (await list('readme')).map((hit) => hit.path).slice(0, 4);
    expect(await order()).to.deep.equal(['README.md', 'docs/README.md', 'dist/a/readme.js', 'dist/a/readme.js.map']);
    await untilWatched(lister, root);
    writeFileSync(join(root, '.gitignore'), 'docs/\n');
    await until(async () => ((await order())[1] === 'dist/a/readme.js' ? true : undefined));
    expect(await order()).to.deep.equal(['README.md', 'dist/a/readme.js', 'dist/a/readme.js.map', 'docs/README.md']);
    expect(lister.servedBy(root)).to.equal('watch');
  });

  it('a watched root keeps the marks right as files move in and out of an ignored folder, as a fresh walk gives them', async () => {
    root = createTempTree(CLONE, 'paths-ignored-');
    lister = createPathLister({ idleMs: 60_000 });
    await untilWatched(lister, root);
    const fresh = createPathLister({ cache: false });
    const same = async () => {
      const requests = [{ limit: 10_000 }, { query: 'readme', limit: 10_000 }];
      const live = await Promise.all(requests.map((request) => lister.listPaths({ path: root, ...request })));
      const walked = await Promise.all(requests.map((request) => fresh.listPaths({ path: root, ...request })));
      return JSON.stringify(live) === JSON.stringify(walked) ? true : undefined;
    };
    const changes = [
      () => mkdirSync(join(root, 'dist', 'b')),
      () => writeFileSync(join(root, 'dist', 'b', 'readme.txt'), ''),
      () => renameSync(join(root, 'dist', 'b'), join(root, 'docs', 'b')), // out of the ignored folder
      () => renameSync(join(root, 'docs', 'README.md'), join(root, 'dist', 'README.md')), // into it
      () => mkdirSync(join(root, 'docs', 'b', 'dist')), // a new folder the root's `dist/` ignores
      () => writeFileSync(join(root, 'docs', 'b', 'dist', 'readme.md'), ''),
    ];
    for (const change of changes) {
      change();
      await until(same);
    }
    const hits = (await list('readme')).map((hit) => hit.path);
    expect(hits.indexOf('docs/b/readme.txt')).to.be.lessThan(hits.indexOf('dist/README.md'));
    expect(hits.indexOf('docs/b/readme.txt')).to.be.lessThan(hits.indexOf('docs/b/dist/readme.md'));
    expect(lister.servedBy(root)).to.equal('watch');
  });
});

/** The calls pause longer than `WATCH_AFTER_PAUSE_MS`: a watch starts once calls on its root pause. */
async function untilWatched(lister: PathLister, root: string): Promise<void> {
  await until(async () => {
    await lister.listPaths({ path: root, limit: 1 });
    return lister.servedBy(root) === 'watch' ? true : undefined;
  }, WATCH_AFTER_PAUSE_MS + 50);
}

async function until<T>(probe: () => Promise<T | undefined>, every = 20): Promise<T> {
  const started = Date.now();
  while (Date.now() - started < DEADLINE_MS) {
    const value = await probe();
    if (value !== undefined) return value;
    await pause(every);
  }
  throw new Error(`not within ${DEADLINE_MS} ms`);
}
