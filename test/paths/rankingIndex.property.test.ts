import { expect } from 'chai';
import fc from 'fast-check';
import { NO_MATCH } from '../../src/paths/score/fuzzyMatch';
import { createPathLister } from '../../src/daemon/pathLister';
import { entryPositions, prepareQuery, scoreEntry } from '../../src/paths/score/scoreEntry';
import { createTempTree, removeTempTree, type TreeSpec } from '../helpers/temp/tree';

/**
 * The ranker scores a whole listing from packed name arrays, path queries directory by directory. Every
 * answer must be what scoring each entry on its own gives: same hits, same scores, same positions.
 */
const nameArb = fc.constantFrom(
  'src',
  'Src',
  'src-x',
  'src.d',
  'src!',
  'index.ts',
  'reindex.ts',
  'a b',
  'cafe\u0301',
  'caf\u00e9.md',
  '\u0130x',
  'x\u{1d49c}b',
  '.env',
  'fooBar.ts',
  'a',
  'ab',
  'b-a',
  'node.js',
  'test',
  'fixtures',
  '\u65e5\u672c',
);
const { tree: treeArb } = fc.letrec<{ tree: TreeSpec; node: TreeSpec[string] }>((tie) => ({
  tree: fc
    .uniqueArray(fc.tuple(nameArb, tie('node')), { selector: ([name]) => name, maxLength: 4 })
    .map((pairs) => Object.fromEntries(pairs)),
  node: fc.oneof({ depthIdentifier: 'tree', maxDepth: 4 }, fc.constant<TreeSpec[string]>(''), tie('tree')),
}));
const queryArb = fc.oneof(
  fc.constantFrom('a', 'i', 's/i', 'src/', '/', 'ab', 'caf\u00e9', 'e\u0301', '\u0130', 'x', 'b/a', 't/f', '.', 'a b', 'S/I'),
  fc.stringMatching(/^[a-z./ ]{1,5}$/),
);

/** Always present, so every run has nesting, a path query's name start, NFD and case-changing names. */
const baseTree: TreeSpec = {
  src: { 'index.ts': '', lib: { 'fooBar.ts': '', 'cafe\u0301.md': '' } },
  test: { fixtures: { '\u0130x': { 'a b': '' } } },
  '.env': '',
};

describe('ranking (property): the packed name index scores every entry as scoring it on its own does', () => {
  it('holds for name and path queries on random trees with unicode, NFD and case-changing names', async () => {
    await fc.assert(
      fc.asyncProperty(treeArb, fc.array(queryArb, { minLength: 1, maxLength: 4 }), async (tree, queries) => {
        const root = createTempTree({ ...baseTree, ...tree }, 'paths-ranking-');
        try {
          const lister = createPathLister({ watcher: null });
          const all = (await lister.listPaths({ path: root, limit: 10_000 })).paths;
          // Without a query: path ascending in UTF-16 code unit order (what Array.prototype.sort does).
          const paths = all.map((entry) => entry.path);
          expect(paths).to.deep.equal([...paths].sort());
          // …read off the tree up to `limit`, also when directories are left out.
          const files = all.filter((entry) => entry.kind === 'file').map((entry) => entry.path);
          for (const limit of [1, 3, 7]) {
            expect((await lister.listPaths({ path: root, limit })).paths.map((entry) => entry.path)).to.deep.equal(paths.slice(0, limit));
            const onlyFiles = await lister.listPaths({ path: root, limit, includeDirectories: false });
            expect(onlyFiles.paths.map((entry) => entry.path)).to.deep.equal(files.slice(0, limit));
          }
          for (const query of queries) {
            const prepared = prepareQuery(query);
            const expected = all
              .map(({ kind, path, name }) => {
                const entry = { kind, path, name };
                return { kind, path, name, score: scoreEntry(prepared, entry), positions: entryPositions(prepared, entry) };
              })
              .filter((entry) => entry.score !== NO_MATCH)
              .sort((a, b) => b.score - a.score || a.name.length - b.name.length || (a.path < b.path ? -1 : 1));
            const ranked = await lister.listPaths({ path: root, query, limit: 10_000 });
            expect(ranked, `query ${JSON.stringify(query)}`).to.deep.equal({ paths: expected, truncated: false });
            // Without directories in the listing, a path query still scores each file's whole path.
            const rankedFiles = await lister.listPaths({ path: root, query, limit: 10_000, includeDirectories: false });
            const expectedFiles = expected.filter((entry) => entry.kind === 'file');
            expect(rankedFiles, `files only, query ${JSON.stringify(query)}`).to.deep.equal({ paths: expectedFiles, truncated: false });
          }
        } finally {
          removeTempTree(root);
        }
      }),
      { numRuns: 30 },
    );
  });
});
