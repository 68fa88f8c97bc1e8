import { advanceColumn, newAlignmentColumn, type AlignmentColumn } from './alignmentColumn';
import { charSetBit } from './foldForMatch';
import { foldedUnitsOf, type FoldedUnits } from './foldedUnits';
import { NO_MATCH } from './fuzzyMatch';
import { SCORE, bonusAfterSlash } from './matchBonus';
import type { NameIndex } from './nameIndex';
import type { WalkEntry } from '../walk/walkEntry';

/**
 * A path query's fuzzy scores over one listing, directory by directory. Scoring each relative path on
 * its own (`fuzzyMatch.ts`, row by row) made `s/` over 100k paths of ~70 units cost 80–165 ms on the
 * benchmark machine. Here the recurrence runs column by column (`alignmentColumn.ts`): the column after
 * a directory's path and the `/` below it is computed once, from its parent's, and continued over each
 * name in it, so a path query costs about what a name query does.
 *
 * Same scores as `fuzzyScore` over the whole path: rows start where the greedy match from the left
 * reaches them, as there, and then run to the end of the text. `fuzzyMatch.ts` also ends each row at the
 * last column the rows below can use (greedy from the right); no cell it computes reads a cell past that
 * bound, and its best last-row cell lies at or before the last occurrence of the query's last unit. The
 * same bound lets a file skip the rows that cannot match inside its name. Property-tested against
 * `scoreEntry` (`test/paths/pathAlignment.property.test.ts`).
 */
export interface PathAligner {
  /** Fuzzy score of the relative path of the entry at `slot` of the index, or NO_MATCH (no name bonuses). */
  score(entry: WalkEntry, slot: number): number;
}

/** The `/` between a directory and a name: punctuation whatever precedes it (`matchBonus.ts`). */
const SLASH_UNITS = Uint16Array.of(0x2f);
const SLASH_BONUSES = Int8Array.of(SCORE.boundary);
/**
 * A saved directory state: rows started and best last-row cell after the directory's path and its `/`,
 * the directory's own fuzzy score (before the `/`), then score, run and run bonus of each started row.
 */
const STARTED = 0;
const BEST = 1;
const OWN_SCORE = 2;
const HEADER = 3;
const PER_ROW = 3;
const UNKNOWN = -1;

/** One aligner per query and listing: directory states live for one scoring pass over the listing. */
export function createPathAligner(foldedQuery: string, index: NameIndex): PathAligner {
  const column = newAlignmentColumn(foldedQuery);
  const m = foldedQuery.length;
  const query = column.query;
  const lastUnitBit = charSetBit(query[m - 1]);
  const states = new SavedStates();
  // Where the state of each listed directory is, by slot; directories not in the listing (files only)
  // go in a map.
  const stateAtSlot = new Int32Array(index.start.length - 1).fill(UNKNOWN);
  const stateOfUnlisted = new Map<WalkEntry, number>();
  // The entries of one directory come together in a walk: one lookup per run of them.
  let lastParent: WalkEntry | null = null;
  let lastParentState = 0;

  /** Folded units of a directory's whole path, kept on its entry (a path never changes). */
  const pathUnitsOf = (directory: WalkEntry): FoldedUnits => (directory.pathUnits ??= foldedUnitsOf(directory.path));

  /**
   * The saved state after `directory`'s path and the `/` below it, computed from its parent's the first
   * time it is asked for. Its name comes from the index when it is listed (`slot` ≥ 0), otherwise from
   * its folded path (kept on the entry, so a files-only search folds each path once per tree).
   */
  const directoryState = (directory: WalkEntry, slot: number): number => {
    const known = slot >= 0 ? stateAtSlot[slot] : (stateOfUnlisted.get(directory) ?? UNKNOWN);
    if (known !== UNKNOWN) return known;
    const parent = directory.parent;
    let text: FoldedUnits = index;
    let from = 0;
    let to = 0;
    let firstBonus = -1;
    if (parent === undefined) {
      // Made without its tree: its whole path, folded from the start.
      column.started = 0;
      column.best = NO_MATCH;
      text = pathUnitsOf(directory);
      to = text.units.length;
    } else {
      if (parent === null) {
        column.started = 0;
        column.best = NO_MATCH;
      } else states.load(directoryState(parent, slot >= 0 ? index.parentSlot[slot] : UNKNOWN), column, 0);
      if (slot >= 0) {
        from = index.start[slot];
        to = index.start[slot + 1];
        // In the index a name's first unit has the bonus of a text's start; here it follows a `/`.
        if (parent !== null) firstBonus = bonusAfterSlash(directory.name);
      } else {
        text = pathUnitsOf(directory);
        from = parent === null ? 0 : pathUnitsOf(parent).units.length + 1;
        to = text.units.length;
      }
    }
    advanceColumn(column, text.units, text.bonus, from, to, firstBonus, 0);
    const ownScore = column.started === m ? column.best : NO_MATCH;
    advanceColumn(column, SLASH_UNITS, SLASH_BONUSES, 0, 1, -1, 0);
    const state = states.save(column, ownScore);
    if (slot >= 0) stateAtSlot[slot] = state;
    else stateOfUnlisted.set(directory, state);
    return state;
  };

  // Set by `rowsFittingFromRight`: one past the last column of the query's last unit.
  let lastMatchEnd = 0;

  /** How many of the query's last units match, in order, inside `units` [start, end) (greedy from the right). */
  const rowsFittingFromRight = (units: Uint16Array, start: number, end: number): number => {
    let row = m - 1;
    lastMatchEnd = start;
    for (let at = end - 1; at >= start && row >= 0; at -= 1) {
      if (units[at] !== query[row]) continue;
      if (row === m - 1) lastMatchEnd = at + 1;
      row -= 1;
    }
    return m - 1 - row;
  };

  const scoreFile = (entry: WalkEntry, slot: number): number => {
    const parent = entry.parent;
    if (parent === undefined) {
      column.started = 0;
      column.best = NO_MATCH;
      const path = foldedUnitsOf(entry.path);
      advanceColumn(column, path.units, path.bonus, 0, path.units.length, -1, 0);
      return column.started === m ? column.best : NO_MATCH;
    }
    const start = index.start[slot];
    // Only the query's last `fitting` rows can match inside the name, so only they and the row above
    // them need its columns, and only up to the last unit's last occurrence (`lastMatchEnd`). Without
    // any (`s/`: names hold no `/`, which their unit set tells without reading them), the directory's
    // state is the answer.
    const fitting = (index.charSet[slot] & lastUnitBit) === 0 ? 0 : rowsFittingFromRight(index.units, start, index.start[slot + 1]);
    const lowestRow = Math.max(0, m - fitting - 1);
    if (parent === null) {
      if (fitting === 0) return NO_MATCH; // the name is the whole path
      column.started = 0;
      column.best = NO_MATCH;
    } else {
      if (parent !== lastParent) {
        lastParentState = directoryState(parent, index.parentSlot[slot]);
        lastParent = parent;
      }
      if (fitting === 0) return states.started(lastParentState) === m ? states.best(lastParentState) : NO_MATCH;
      states.load(lastParentState, column, lowestRow);
    }
    const firstBonus = parent === null ? -1 : bonusAfterSlash(entry.name);
    advanceColumn(column, index.units, index.bonus, start, lastMatchEnd, firstBonus, lowestRow);
    return column.started === m ? column.best : NO_MATCH;
  };

  return {
    score: (entry, slot) => (entry.kind === 'directory' ? states.ownScore(directoryState(entry, slot)) : scoreFile(entry, slot)),
  };
}

/** Directory states of one scoring pass, back to back in one growing array; a state is its offset. */
class SavedStates {
  private saved = new Int32Array(4096);
  private length = 0;

  save(column: AlignmentColumn, ownScore: number): number {
    const size = HEADER + PER_ROW * column.started;
    if (this.length + size > this.saved.length) {
      const larger = new Int32Array(Math.max(this.saved.length * 2, this.length + size));
      larger.set(this.saved);
      this.saved = larger;
    }
    const saved = this.saved;
    const offset = this.length;
    saved[offset + STARTED] = column.started;
    saved[offset + BEST] = column.best;
    saved[offset + OWN_SCORE] = ownScore;
    for (let row = 0, at = offset + HEADER; row < column.started; row += 1, at += PER_ROW) {
      saved[at] = column.scores[row];
      saved[at + 1] = column.runs[row];
      saved[at + 2] = column.runBonus[row];
    }
    this.length += size;
    return offset;
  }

  /** Loads a state into `column`; rows below `lowestRow` are left out (nothing will read them). */
  load(offset: number, column: AlignmentColumn, lowestRow: number): void {
    const saved = this.saved;
    const started = saved[offset + STARTED];
    column.started = started;
    column.best = saved[offset + BEST];
    for (let row = lowestRow, at = offset + HEADER + PER_ROW * lowestRow; row < started; row += 1, at += PER_ROW) {
      column.scores[row] = saved[at];
      column.runs[row] = saved[at + 1];
      column.runBonus[row] = saved[at + 2];
    }
  }

  started(offset: number): number {
    return this.saved[offset + STARTED];
  }

  best(offset: number): number {
    return this.saved[offset + BEST];
  }

  ownScore(offset: number): number {
    return this.saved[offset + OWN_SCORE];
  }
}
