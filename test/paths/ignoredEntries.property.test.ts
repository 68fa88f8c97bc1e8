import { expect } from 'chai';
import fc from 'fast-check';
import { execFileSync } from 'node:child_process';
import { lastValueFrom } from 'rxjs';
import { createPathLister } from '../../src/daemon/pathLister';
import { walk$ } from '../../src/paths/walk/walk';
import { createTempTree, removeTempTree, type TreeSpec } from '../helpers/temp/tree';

/**
 * Issue 29: which files rank as ignored is what git says is ignored. Random trees with `.gitignore` files at
 * random depths (name and path patterns, `dir/`, `/anchored`, `**`, wildcards, `!` negations) are marked by the
 * walk and compared with `git ls-files --others --ignored --exclude-standard` in a repository made there; and
 * every file is still listed and found by its name (rules 1–3, 6).
 */
const names = ['a.js', 'b.log', 'keep.js', 'dist', 'src', 'out', 'x.map', 'lib', 'c.ts'] as const;
const patternArb = fc.constantFrom(
  '*.js',
  '!keep.js',
  'dist/',
  'dist',
  '/src',
  '/out/',
  '*.log',
  '!b.log',
  '**/x.map',
  'lib/**',
  'src/*.ts',
  '!/dist/',
  'c.*',
  '!c.ts',
  'out',
);
const ignoreFileArb = fc.array(patternArb, { minLength: 1, maxLength: 4 }).map((lines) => `${lines.join('\n')}\n`);

type Node = TreeSpec[string];
const { tree: treeArb } = fc.letrec<{ tree: TreeSpec; node: Node }>((tie) => ({
  tree: fc
    .tuple(
      fc.uniqueArray(fc.tuple(fc.constantFrom(...names), tie('node')), { selector: ([name]) => name, maxLength: 4 }),
      fc.option(ignoreFileArb, { nil: undefined }),
    )
    .map(([pairs, rules]) => ({ ...Object.fromEntries(pairs), ...(rules === undefined ? {} : { '.gitignore': rules }) })),
  node: fc.oneof({ depthIdentifier: 'tree', maxDepth: 3 }, fc.constant<Node>(''), tie('tree')),
}));

function gitIgnoredFiles(root: string): string[] {
  execFileSync('git', ['init', '-q'], { cwd: root });
  const out = execFileSync('git', ['ls-files', '--others', '--ignored', '--exclude-standard', '-z'], { cwd: root, encoding: 'utf8' });
  return out.split('\0').filter(Boolean).sort();
}

describe('ignored paths (property, issue 29): the walk marks as ignored exactly the files git ignores', () => {
  it('rule 6 still holds: on random trees with nested .gitignore files every file is listed, found, and marked as git says', async () => {
    await fc.assert(
      fc.asyncProperty(treeArb, async (tree) => {
        const root = createTempTree(tree, 'paths-ignored-property-');
        try {
          const listing = await lastValueFrom(walk$(root));
          const files = listing.entries.filter((entry) => entry.kind === 'file');
          const marked = files
            .filter((entry) => entry.ignored === true)
            .map((entry) => entry.path)
            .sort();
          expect(marked, JSON.stringify(tree)).to.deep.equal(gitIgnoredFiles(root));
          const lister = createPathLister({ watcher: null });
          const listed = (await lister.listPaths({ path: root, limit: 10_000 })).paths.map((hit) => hit.path);
          for (const file of files) {
            expect(listed).to.include(file.path);
            const found = await lister.listPaths({ path: root, query: file.name, limit: 10_000 });
            expect(found.paths.map((hit) => hit.path)).to.include(file.path);
          }
          await lister.close();
        } finally {
          removeTempTree(root);
        }
      }),
      { numRuns: 40 },
    );
  });
});
