import { expect } from 'chai';
import fc from 'fast-check';
import { lastValueFrom, of } from 'rxjs';
import { keepKinds } from '../../src/paths/rank/keepKinds';
import { rankByQuery } from '../../src/paths/rank/rankByQuery';
import { truncateTo } from '../../src/paths/rank/truncateTo';
import type { Listing, WalkEntry } from '../../src/paths/walk/walkEntry';
import { entryTreeArb, walkEntries } from '../helpers/paths/entryTrees';
import type { ListPathsResult } from '../../src/protocol/hostFiles';

/**
 * Rules 4–5: the same tree gives the same answer whatever order the disk returned its entries in. The
 * disk is left out (a file system's `readdir` order cannot be chosen): the entries of one walked tree go
 * to the ranking stages in random orders, and every answer must equal the walk-order one. Names repeat
 * across directories and share lengths, so scores tie and the tiebreaks (shorter name, then path) decide.
 */
const treeArb = entryTreeArb(['ab.ts', 'ba.ts', 'abc.ts', 'a', 'b', 'ab', 'x-ab.ts', 'src', 'lib', 'AB.ts'], {
  maxDepth: 3,
  maxChildren: 5,
  maxRoots: 6,
});

const searches: Array<{ query?: string; limit: number; includeFiles: boolean; includeDirectories: boolean }> = [
  { limit: 3, includeFiles: true, includeDirectories: true },
  { query: 'ab', limit: 3, includeFiles: true, includeDirectories: true },
  { query: 'ab', limit: 1000, includeFiles: true, includeDirectories: false },
  { query: 'a', limit: 4, includeFiles: true, includeDirectories: true },
  { query: 'a/b', limit: 1000, includeFiles: true, includeDirectories: true },
  { query: 'b/', limit: 2, includeFiles: false, includeDirectories: true },
];

function search(entries: readonly WalkEntry[], { query, limit, ...kinds }: (typeof searches)[number]): Promise<ListPathsResult> {
  const listing: Listing = { root: '/r', entries };
  return lastValueFrom(of(listing).pipe(keepKinds(kinds), rankByQuery(query), truncateTo(limit)));
}

describe('ranking is independent of the order entries arrive in (property)', () => {
  it('gives the walk-order answer for every shuffled order, with and without a query, truncated or not', async () => {
    const treeAndOrderArb = treeArb.chain((tree) => {
      const entries = walkEntries(tree);
      return fc.tuple(fc.constant(entries), fc.shuffledSubarray(entries, { minLength: entries.length, maxLength: entries.length }));
    });
    await fc.assert(
      fc.asyncProperty(treeAndOrderArb, async ([inWalkOrder, shuffled]) => {
        for (const request of searches) {
          expect(await search(shuffled, request), JSON.stringify(request)).to.deep.equal(await search(inWalkOrder, request));
        }
      }),
      { numRuns: 300 },
    );
  });
});
