import { expect } from 'chai';
import fc from 'fast-check';
import { join } from 'node:path';
import { readFile } from '../../src/files/readFile';
import { createPathLister } from '../../src/daemon/pathLister';
import { createTempTree, removeTempTree, type TreeSpec } from '../helpers/temp/tree';

/** Names a real tree has: dot names, the excluded ones, spaces, NFD/NFC, case-changing unicode, emoji. */
const nameArb = fc.oneof(
  fc.constantFrom(
    '.git',
    'node_modules',
    '.env',
    '.github',
    'workflows',
    'a b',
    ' lead',
    'trail ',
    'cafe\u0301',
    'caf\u00e9',
    '\u0130stanbul',
    '\u65e5\u672c\u8a9e',
    '\u{1f600}.txt',
    'index.ts',
    'Index.TS',
    '..x',
    '-dash',
    'x.y.z',
  ),
  fc.stringMatching(/^[a-zA-Z0-9._ -]{1,12}$/).filter((name) => name !== '.' && name !== '..'),
);

type NodeSpec = TreeSpec[string];
const symlinkArb = fc.constantFrom('.', '..', 'nowhere', '../..', 'index.ts').map((target): NodeSpec => ({ symlink: target }));

const { tree: treeArb } = fc.letrec<{ tree: TreeSpec; node: NodeSpec }>((tie) => ({
  tree: fc
    .uniqueArray(fc.tuple(nameArb, tie('node')), { selector: ([name]) => name, maxLength: 5 })
    .map((pairs) => Object.fromEntries(pairs)),
  node: fc.oneof({ depthIdentifier: 'tree', maxDepth: 4 }, fc.constant<NodeSpec>('content'), symlinkArb, tie('tree')),
}));

/** A chain `d0/d1/…/dN/deep.txt` so every run also has deep nesting. */
const deepChainArb = fc.integer({ min: 1, max: 12 }).map((depth) => {
  let spec: TreeSpec = { 'deep.txt': 'deep' };
  for (let level = depth; level >= 0; level -= 1) spec = { [`d${level}`]: spec };
  return spec;
});

/** What rules 1–3 say must be listed: regular files and directories, minus .git, node_modules, symlinks. */
function expectedEntries(spec: TreeSpec, prefix = ''): Array<{ kind: 'file' | 'directory'; path: string; name: string }> {
  const entries: Array<{ kind: 'file' | 'directory'; path: string; name: string }> = [];
  for (const [name, node] of Object.entries(spec)) {
    const path = prefix === '' ? name : `${prefix}/${name}`;
    if (name === '.git') continue;
    if (typeof node === 'string') entries.push({ kind: 'file', path, name });
    else if (!('symlink' in node) && !('fifo' in node)) {
      if (name === 'node_modules') continue;
      entries.push({ kind: 'directory', path, name });
      entries.push(...expectedEntries(node as TreeSpec, path));
    }
  }
  return entries;
}

describe('rule 6 (property): whatever host.read_file can serve under the root is listed and findable', () => {
  it('holds on random trees with dot names, .git, node_modules, symlinks, spaces, unicode and deep nesting', async () => {
    await fc.assert(
      fc.asyncProperty(treeArb, deepChainArb, async (tree, chain) => {
        const spec = { ...tree, ...chain };
        const root = createTempTree(spec, 'paths-rule6-');
        try {
          const lister = createPathLister({ watcher: null });
          const expected = expectedEntries(spec);
          const full = await lister.listPaths({ path: root, limit: 10_000 });
          const listed = full.paths.map((entry) => `${entry.kind} ${entry.path}`).sort();
          expect(listed).to.deep.equal(expected.map((entry) => `${entry.kind} ${entry.path}`).sort());
          for (const entry of expected) {
            if (entry.kind === 'file') await readFile({ path: join(root, entry.path) });
            const found = await lister.listPaths({ path: root, query: entry.name, includeDirectories: true, limit: 10_000 });
            expect(
              found.paths.map((hit) => hit.path),
              `query ${JSON.stringify(entry.name)}`,
            ).to.include(entry.path);
          }
        } finally {
          removeTempTree(root);
        }
      }),
      { numRuns: 25 },
    );
  });
});
