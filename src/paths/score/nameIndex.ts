import { foldForMatch } from './foldForMatch';
import { NOT_ASCII, writeFoldedAscii, writeFoldedUnits } from './foldedUnits';
import type { WalkEntry } from '../walk/walkEntry';

/**
 * The folded names of one listing packed back to back (`foldedUnits.ts`), so ranking reads typed arrays
 * front to back instead of chasing 100k entry objects and strings: entry i's name is the units
 * [start[i], start[i + 1]), `charSet[i]` says which units it has (`foldForMatch.ts`), and `parentSlot[i]`
 * is the slot of its directory's entry and `isDirectory[i]` 1 for a directory (for path queries), and
 * `ignored[i]` 1 for an ignored entry (`WalkEntry.ignored`, ranked last), and `nameLength[i]` the length of its
 * name as the ranker's tie-break compares it (UTF-16 units, before folding). A tree whose marks change gets a new
 * listing (`treeSnapshot.ts`), so an index never holds stale marks.
 */
export interface NameIndex {
  readonly units: Uint16Array;
  readonly bonus: Int8Array;
  readonly start: Int32Array;
  readonly charSet: Int32Array;
  readonly parentSlot: Int32Array;
  readonly isDirectory: Uint8Array;
  readonly ignored: Uint8Array;
  readonly nameLength: Int32Array;
}

/** `parentSlot` of an entry directly under the root. */
export const AT_ROOT = -1;
/** `parentSlot` of an entry whose directory is not in the listing (filtered out, or made without a tree). */
export const PARENT_ELSEWHERE = -2;

// A cached walk returns the same entries array while the tree is unchanged, so keystrokes reuse the index.
const indexes = new WeakMap<readonly WalkEntry[], NameIndex>();
// The listing a changed tree's new listing replaced (`followsListing`), whose index the new one copies from.
const predecessors = new WeakMap<readonly WalkEntry[], readonly WalkEntry[]>();

export function nameIndexOf(entries: readonly WalkEntry[]): NameIndex {
  let index = indexes.get(entries);
  if (index === undefined) {
    const previous = predecessors.get(entries);
    const source = previous === undefined ? undefined : indexes.get(previous);
    index = buildNameIndex(entries, source === undefined ? null : { entries: previous!, index: source });
    indexes.set(entries, index);
    predecessors.delete(entries);
  }
  return index;
}

/** Whether `entries` has its index already (packing it again is a lookup, and says nothing new). */
export function hasNameIndex(entries: readonly WalkEntry[]): boolean {
  return indexes.has(entries);
}

/**
 * Says that `next` is the listing of a tree that `previous` listed before a change: its index is then built
 * by copying the packed names of every entry the two share (a fold after a file-watcher event keeps 135k of
 * 135k names), folding only the new ones. Without this, or once `previous`'s index is gone, it folds all.
 */
export function followsListing(next: readonly WalkEntry[], previous: readonly WalkEntry[]): void {
  if (next !== previous && !indexes.has(next)) predecessors.set(next, previous);
}

interface IndexSource {
  readonly entries: readonly WalkEntry[];
  readonly index: NameIndex;
}

function buildNameIndex(entries: readonly WalkEntry[], source: IndexSource | null): NameIndex {
  const count = entries.length;
  // Folding keeps an ASCII name's length; a non-ASCII one may grow (NFD, `İ`), and then the arrays do. With a
  // source, its size stands in for the sum of the names' lengths, which reads every name string once more.
  let capacity = source === null ? 0 : source.index.start[source.entries.length] + SOURCE_SLACK;
  if (source === null) for (let slot = 0; slot < count; slot += 1) capacity += entries[slot].name.length;
  let units: Uint16Array = new Uint16Array(capacity);
  let bonus: Int8Array = new Int8Array(capacity);
  const start = new Int32Array(count + 1);
  const charSet = new Int32Array(count);
  const isDirectory = new Uint8Array(count);
  const ignored = new Uint8Array(count);
  const nameLength = new Int32Array(count);
  const sourceEntries = source?.entries ?? [];
  const sourceStart = source?.index.start ?? new Int32Array(1);
  // Names copied from `source` go in runs: entries that were next to each other there usually still are, so
  // a run of them is one typed-array copy. The run is units [runFrom, runFrom + runLength) of the source.
  let runFrom = 0;
  let runLength = 0;
  let total = 0;
  for (let slot = 0; slot < count; slot += 1) {
    const entry = entries[slot];
    const was = entry.indexSlot ?? -1;
    const copied = was >= 0 && was < sourceEntries.length && sourceEntries[was] === entry;
    const from = copied ? sourceStart[was] : 0;
    if (runLength > 0 && (!copied || from !== runFrom + runLength)) {
      copyUnits(source!.index, runFrom, runLength, units, bonus, total - runLength);
      runLength = 0;
    }
    start[slot] = total;
    isDirectory[slot] = entry.kind === 'directory' ? 1 : 0;
    ignored[slot] = entry.ignored === true ? 1 : 0;
    nameLength[slot] = entry.name.length;
    entry.indexSlot = slot;
    if (copied) {
      const length = sourceStart[was + 1] - from;
      if (runLength === 0) runFrom = from;
      runLength += length;
      charSet[slot] = source!.index.charSet[was];
      total += length;
      if (total > units.length) [units, bonus] = grow(units, bonus, total);
      continue;
    }
    const name = entry.name;
    if (total + name.length > units.length) [units, bonus] = grow(units, bonus, total + name.length);
    const set = writeFoldedAscii(name, units, bonus, total);
    if (set !== NOT_ASCII) {
      charSet[slot] = set;
      total += name.length;
      continue;
    }
    const folded = foldForMatch(name);
    if (total + folded.text.length > units.length) [units, bonus] = grow(units, bonus, total + folded.text.length);
    total += writeFoldedUnits(name, units, bonus, total, folded);
    charSet[slot] = folded.charSet;
  }
  if (runLength > 0) copyUnits(source!.index, runFrom, runLength, units, bonus, total - runLength);
  start[count] = total;
  return { units, bonus, start, charSet, parentSlot: parentSlotsOf(entries), isDirectory, ignored, nameLength };
}

/** Room for names a change added, beyond the previous index's size, before the arrays grow. */
const SOURCE_SLACK = 4_096;

function copyUnits(from: NameIndex, at: number, length: number, units: Uint16Array, bonus: Int8Array, to: number): void {
  units.set(from.units.subarray(at, at + length), to);
  bonus.set(from.bonus.subarray(at, at + length), to);
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

/** Each entry's directory's slot, read off `indexSlot`, which the index build just set for every entry. */
function parentSlotsOf(entries: readonly WalkEntry[]): Int32Array {
  const parentSlot = new Int32Array(entries.length);
  for (let slot = 0; slot < entries.length; slot += 1) {
    const parent = entries[slot].parent;
    if (parent === null) parentSlot[slot] = AT_ROOT;
    else {
      const at = parent?.indexSlot ?? -1;
      parentSlot[slot] = at >= 0 && entries[at] === parent ? at : PARENT_ELSEWHERE;
    }
  }
  return parentSlot;
}
