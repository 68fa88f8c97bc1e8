import { expect } from 'chai';
import fc from 'fast-check';
import { NO_MATCH } from '../../src/paths/score/fuzzyMatch';
import { nameIndexOf } from '../../src/paths/score/nameIndex';
import { prepareQuery, scoreEntry } from '../../src/paths/score/scoreEntry';
import { scoreListing } from '../../src/paths/score/scoreListing';
import { newWalkEntry, type WalkEntry } from '../../src/paths/walk/walkEntry';
import { entryTreeArb, walkEntries } from '../helpers/paths/entryTrees';

/**
 * Path queries are scored directory by directory (`pathAlignment.ts`): a directory's alignment state is
 * continued over each name below it, and a file skips the query rows that cannot match inside its name.
 * Whatever the listing looks like — walk order, children before their directory, directories left out
 * (`host.list_files`), entries without `parent` links — every score must be the one the whole path gets
 * on its own (`scoreEntry`). In memory, so it can try thousands of trees; a small alphabet, so most
 * paths match most queries and runs, word starts and gaps all occur.
 */
const treeArb = entryTreeArb(['a', 'b', 'ab', 'ba', 'a-b', 'aB', 'b.a', 'A', '_a', 'a b', 'e\u0301', '\u0130a', 'bab', 'aab'], {
  maxDepth: 5,
  maxChildren: 4,
  maxRoots: 4,
});
const pathQueryArb = fc
  .tuple(fc.stringMatching(/^[ab.\-e ]{0,4}$/), fc.stringMatching(/^[ab/\-]{0,4}$/))
  .map(([before, after]) => `${before}/${after}`);

/** Fisher–Yates with a small LCG: a random order fast-check can shrink through its seed. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let state = seed >>> 0;
  for (let index = out.length - 1; index > 0; index -= 1) {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    const other = state % (index + 1);
    [out[index], out[other]] = [out[other], out[index]];
  }
  return out;
}

const listings: Array<[what: string, make: (entries: WalkEntry[], seed: number) => WalkEntry[]]> = [
  ['in walk order', (entries) => entries],
  ['deepest first (children before their directory)', (entries) => [...entries].reverse()],
  ['in a random order', (entries, seed) => shuffled(entries, seed)],
  ['files only (directories not in the listing)', (entries) => entries.filter((entry) => entry.kind === 'file')],
  ['directories only', (entries) => entries.filter((entry) => entry.kind === 'directory')],
  ['without parent links', (entries) => entries.map(({ kind, path, name }) => ({ kind, path, name }))],
];

function rankerScores(query: string, entries: WalkEntry[]): Map<string, number> {
  const scores = new Int32Array(entries.length);
  const slots = new Int32Array(entries.length);
  const count = scoreListing(prepareQuery(query), entries, nameIndexOf(entries), scores, slots);
  return new Map(Array.from(slots.subarray(0, count), (slot) => [entries[slot].path, scores[slot]]));
}

function ownScores(query: string, entries: WalkEntry[]): Map<string, number> {
  const prepared = prepareQuery(query);
  const scored = entries.map(
    (entry) => [entry.path, scoreEntry(prepared, { kind: entry.kind, path: entry.path, name: entry.name })] as const,
  );
  return new Map(scored.filter(([, score]) => score !== NO_MATCH));
}

describe('path queries scored directory by directory (property)', () => {
  for (const [what, make] of listings) {
    it(`give every entry its whole path's score: ${what}`, () => {
      fc.assert(
        fc.property(treeArb, fc.array(pathQueryArb, { minLength: 1, maxLength: 4 }), fc.nat(), (tree, queries, seed) => {
          const entries = make(walkEntries(tree), seed);
          for (const query of queries) {
            expect(rankerScores(query, entries), `query ${JSON.stringify(query)}`).to.deep.equal(ownScores(query, entries));
          }
        }),
        { numRuns: 400 },
      );
    });
  }

  it('scores a long path with many matches as the whole-path scorer does (one deep chain)', () => {
    const names = ['src', 'a-b', 'b_a', 'abab', 'x.ab', 'Ab', 'ba', 'a b', 'aab.ts'];
    const entries: WalkEntry[] = [];
    let parent: WalkEntry | null = null;
    for (const [depth, name] of names.entries()) {
      const entry = newWalkEntry(
        depth === names.length - 1 ? 'file' : 'directory',
        parent === null ? name : `${parent.path}/${name}`,
        name,
        parent,
      );
      entries.push(entry);
      parent = entry;
    }
    for (const query of ['s/a', 'a/b', 'ab/ab', 'a/a/a/a', 'b/ts', '/', 'src/aab.ts', 'ab/', 'a b/a']) {
      expect(rankerScores(query, entries), query).to.deep.equal(ownScores(query, entries));
    }
  });
});
