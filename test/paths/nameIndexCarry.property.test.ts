import { expect } from 'chai';
import fc from 'fast-check';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { followsListing, nameIndexOf, type NameIndex } from '../../src/paths/score/nameIndex';
import { createTreeSnapshot } from '../../src/paths/walk/treeSnapshot';
import type { WalkEntry } from '../../src/paths/walk/walkEntry';
import { createTempTree, removeTempTree } from '../helpers/temp/tree';

/**
 * After a change, the cache builds the new listing's name index by copying the packed names of the entries it
 * shares with the old listing (issue 16: a fold after a watcher event must not refold 135k names). Whatever
 * the changes, that index must be exactly the one folding every name afresh gives.
 */
type Change = { op: 'add' | 'addMany' | 'remove' | 'rename'; at: number; name: string };

// Non-ASCII names fold to more units (NFD, `İ`): copied runs then differ in length from the names.
const nameArb = fc.constantFrom('a', 'Readme.md', 'cafe\u0301', 'caf\u00e9', '\u0130x', 'x\u{1d49c}b', 'src', 'fooBar.ts');
const changeArb: fc.Arbitrary<Change> = fc.record({
  op: fc.constantFrom('add' as const, 'addMany' as const, 'remove' as const, 'rename' as const),
  at: fc.nat(),
  name: nameArb,
});

/** Every array of the index, so two indexes compare by content. */
function contentOf(index: NameIndex): Record<string, number[]> {
  return Object.fromEntries(
    Object.entries(index).map(([key, array]) => {
      const typed = array as Uint16Array | Int8Array | Int32Array | Uint8Array;
      // The packed arrays may have room past the last name; only the names' units are content.
      const used = key === 'units' || key === 'bonus' ? index.start[index.start.length - 1] : typed.length;
      return [key, Array.from(typed.subarray(0, used))];
    }),
  );
}

function apply(root: string, change: Change, directories: string[]): void {
  const dir = join(root, directories[change.at % directories.length]!);
  try {
    switch (change.op) {
      case 'add':
        return writeFileSync(join(dir, `${change.name}-${change.at}`), '');
      case 'addMany':
        // More units than the copied index has room for past its end: the arrays grow mid-build.
        mkdirSync(join(dir, `many-${change.at}`));
        for (let i = 0; i < 60; i += 1) writeFileSync(join(dir, `many-${change.at}`, `${change.name.repeat(12)}-${i}`), '');
        return;
      case 'remove':
        return rmSync(dir === root ? join(root, 'src') : dir, { recursive: true, force: true });
      case 'rename':
        return renameSync(dir, join(root, `${change.name}-moved-${change.at}`));
    }
  } catch {
    // The change did not happen (a name taken, a folder moved into itself): also a state to check.
  }
}

describe('name index (property): an index carried over a change equals one folded afresh', () => {
  it('holds for random adds, removes and renames of folders with non-ASCII names', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(changeArb, { minLength: 1, maxLength: 8 }), async (changes) => {
        const root = createTempTree(
          { src: { 'index.ts': '', lib: { 'cafe\u0301.md': '', 'util.ts': '' } }, 'Caf\u00e9s': { '\u0130x': '' } },
          'name-index-',
        );
        try {
          let carried = 0;
          const snapshot = createTreeSnapshot(root, {
            racyWindowMs: 0,
            onListingChanged: (next, previous) => {
              carried += 1;
              followsListing(next, previous);
            },
          });
          let listing = await snapshot.refresh();
          nameIndexOf(listing.entries);
          for (const change of changes) {
            const directories = ['', ...listing.entries.filter((entry) => entry.kind === 'directory').map((entry) => entry.path)];
            apply(root, change, directories);
            listing = await snapshot.refresh();
            const kept = nameIndexOf(listing.entries);
            const afresh = nameIndexOf([...listing.entries]); // a new array: nothing to copy from
            // A files-only listing of the same entries (as `includeDirectories: false` ranks) gives them other
            // slots there: the next carried build must not take those for slots in the listing it follows.
            nameIndexOf(listing.entries.filter((entry, slot) => entry.kind === 'file' || slot % 2 === 0));
            expect(contentOf(kept)).to.deep.equal(contentOf(afresh));
            expectParentsRight(listing.entries, kept);
          }
          expect(carried, 'the snapshot says when its listing changed').to.be.greaterThan(0);
        } finally {
          removeTempTree(root);
        }
      }),
      { numRuns: 40 },
    );
  });
});

function expectParentsRight(entries: readonly WalkEntry[], index: NameIndex): void {
  entries.forEach((entry, slot) => {
    const parent = index.parentSlot[slot];
    if (entry.parent === null) expect(parent).to.equal(-1);
    else expect(entries[parent], entry.path).to.equal(entry.parent);
  });
}
