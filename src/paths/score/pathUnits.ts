import { foldedUnitsOf, type FoldedUnits } from './foldedUnits';
import { bonusAt } from './matchBonus';
import type { WalkEntry } from '../walk/walkEntry';

/**
 * The folded units of an entry's relative path, for the positions of a path query's returned rows, put
 * together from its directory's units (built once per directory and kept on the directory entry) + `/` +
 * its name's units. Folding works code point by code point, so this equals folding the whole path; only
 * the bonus of the name's first unit changes, as it now follows a `/`. (Scores of a whole listing are
 * continued directory by directory instead: `pathAlignment.ts`.)
 */
export interface PathUnits extends FoldedUnits {
  readonly length: number;
  /** Column of the name's first unit. */
  readonly nameColumn: number;
}

const SLASH = 0x2f;
let scratchUnits = new Uint16Array(1024);
let scratchBonus = new Int8Array(1024);

/**
 * Writes the path of `entry` into scratch arrays, valid until the next call. The name's units are given
 * by the caller (from a `NameIndex` or `foldedUnitsOf(entry.name)`).
 */
export function assemblePathUnits(entry: WalkEntry, name: FoldedUnits, nameStart: number, nameLength: number): PathUnits {
  const directory = directoryUnitsOf(entry);
  const directoryLength = directory === null ? 0 : directory.units.length;
  const nameColumn = directory === null ? 0 : directoryLength + 1;
  const length = nameColumn + nameLength;
  if (scratchUnits.length < length) {
    scratchUnits = new Uint16Array(length * 2);
    scratchBonus = new Int8Array(length * 2);
  }
  if (directory !== null) {
    scratchUnits.set(directory.units, 0);
    scratchBonus.set(directory.bonus, 0);
    scratchUnits[directoryLength] = SLASH;
    scratchBonus[directoryLength] = bonusAt(entry.path, entry.path.length - entry.name.length - 1);
  }
  // A loop, not `set(subarray(…))`: names are short and a subarray is an allocation per candidate.
  for (let unit = 0; unit < nameLength; unit += 1) {
    scratchUnits[nameColumn + unit] = name.units[nameStart + unit];
    scratchBonus[nameColumn + unit] = name.bonus[nameStart + unit];
  }
  if (directory !== null && nameLength > 0) scratchBonus[nameColumn] = bonusAt(entry.path, entry.path.length - entry.name.length);
  return { units: scratchUnits, bonus: scratchBonus, length, nameColumn };
}

/** Folded units of the directory part of `entry.path` (before the last `/`), or null at the root. */
function directoryUnitsOf(entry: WalkEntry): FoldedUnits | null {
  const parent = entry.parent;
  if (parent === null) return null;
  if (parent !== undefined) return (parent.pathUnits ??= foldedUnitsOf(parent.path));
  // An entry made without its tree: fold the directory part of its path each time.
  const directoryLength = entry.path.length - entry.name.length - 1;
  return directoryLength > 0 ? foldedUnitsOf(entry.path.slice(0, directoryLength)) : null;
}
