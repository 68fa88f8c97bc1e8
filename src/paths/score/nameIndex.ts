import { foldForMatch } from './foldForMatch';
import { NOT_ASCII, writeFoldedAscii, writeFoldedUnits } from './foldedUnits';
import type { WalkEntry } from '../walk/walkEntry';

/**
 * The folded names of one listing packed back to back (`foldedUnits.ts`), so ranking reads typed arrays
 * front to back instead of chasing 100k entry objects and strings: entry i's name is the units
 * [start[i], start[i + 1]), `charSet[i]` says which units it has (`foldForMatch.ts`), and `parentSlot[i]`
 * is the slot of its directory's entry and `isDirectory[i]` 1 for a directory (for path queries).
 */
export interface NameIndex {
  readonly units: Uint16Array;
  readonly bonus: Int8Array;
  readonly start: Int32Array;
  readonly charSet: Int32Array;
  readonly parentSlot: Int32Array;
  readonly isDirectory: Uint8Array;
}

/** `parentSlot` of an entry directly under the root. */
export const AT_ROOT = -1;
/** `parentSlot` of an entry whose directory is not in the listing (filtered out, or made without a tree). */
export const PARENT_ELSEWHERE = -2;

// A cached walk returns the same entries array while the tree is unchanged, so keystrokes reuse the index.
const indexes = new WeakMap<readonly WalkEntry[], NameIndex>();

export function nameIndexOf(entries: readonly WalkEntry[]): NameIndex {
  let index = indexes.get(entries);
  if (index === undefined) {
    index = buildNameIndex(entries);
    indexes.set(entries, index);
  }
  return index;
}

function buildNameIndex(entries: readonly WalkEntry[]): NameIndex {
  const count = entries.length;
  // Folding keeps an ASCII name's length; a non-ASCII one may grow (NFD, `İ`), and then the arrays do.
  let capacity = 0;
  for (const entry of entries) capacity += entry.name.length;
  let units: Uint16Array = new Uint16Array(capacity);
  let bonus: Int8Array = new Int8Array(capacity);
  const start = new Int32Array(count + 1);
  const charSet = new Int32Array(count);
  const isDirectory = new Uint8Array(count);
  let total = 0;
  for (let slot = 0; slot < count; slot += 1) {
    const entry = entries[slot];
    start[slot] = total;
    isDirectory[slot] = entry.kind === 'directory' ? 1 : 0;
    if (total + entry.name.length > units.length) [units, bonus] = grow(units, bonus, total + entry.name.length);
    const set = writeFoldedAscii(entry.name, units, bonus, total);
    if (set !== NOT_ASCII) {
      charSet[slot] = set;
      total += entry.name.length;
      continue;
    }
    const folded = foldForMatch(entry.name);
    if (total + folded.text.length > units.length) [units, bonus] = grow(units, bonus, total + folded.text.length);
    total += writeFoldedUnits(entry.name, units, bonus, total, folded);
    charSet[slot] = folded.charSet;
  }
  start[count] = total;
  return { units, bonus, start, charSet, parentSlot: parentSlotsOf(entries), isDirectory };
}

/** Larger copies of the arrays, for at least `needed` units (a typed array ignores writes past its end). */
function grow(units: Uint16Array, bonus: Int8Array, needed: number): [Uint16Array, Int8Array] {
  const size = Math.max(units.length * 2, needed);
  const grownUnits = new Uint16Array(size);
  const grownBonus = new Int8Array(size);
  grownUnits.set(units);
  grownBonus.set(bonus);
  return [grownUnits, grownBonus];
}

function parentSlotsOf(entries: readonly WalkEntry[]): Int32Array {
  const slotOf = new Map<WalkEntry, number>();
  entries.forEach((entry, slot) => {
    if (entry.kind === 'directory') slotOf.set(entry, slot);
  });
  const parentSlot = new Int32Array(entries.length);
  // A walk lists a directory's entries together: look the directory up once per run, not once per entry.
  let runParent: WalkEntry | null | undefined = undefined;
  let runSlot = PARENT_ELSEWHERE;
  entries.forEach((entry, slot) => {
    if (entry.parent !== runParent || slot === 0) {
      runParent = entry.parent;
      runSlot = entry.parent === null ? AT_ROOT : ((entry.parent !== undefined ? slotOf.get(entry.parent) : undefined) ?? PARENT_ELSEWHERE);
    }
    parentSlot[slot] = runSlot;
  });
  return parentSlot;
}
