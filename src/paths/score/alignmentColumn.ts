import { NO_MATCH } from './fuzzyMatch';
import { SCORE } from './matchBonus';

/**
 * The recurrence of `fuzzyMatch.ts`, one text column at a time: for each query row, its latest cell
 * (score, run length, bonus of the run's first column). `fuzzyMatch.ts` fills its matrix row by row
 * over a whole text; a column can be saved after a directory's path and continued over each name below
 * it (`pathAlignment.ts`), which gives the same scores (see there).
 *
 * A row starts where the greedy match from the left reaches it, as in `fuzzyMatch.ts`; rows at and past
 * `started` have not begun. `best` is the best last-row cell that ends a match so far.
 */
export interface AlignmentColumn {
  readonly query: Uint16Array;
  readonly scores: Int32Array;
  readonly runs: Int32Array;
  readonly runBonus: Int32Array;
  started: number;
  best: number;
}

export function newAlignmentColumn(foldedQuery: string): AlignmentColumn {
  const m = foldedQuery.length;
  const query = Uint16Array.from(foldedQuery, (char) => char.charCodeAt(0));
  return { query, scores: new Int32Array(m), runs: new Int32Array(m), runBonus: new Int32Array(m), started: 0, best: NO_MATCH };
}

// Module-level copies: reading `SCORE.x` through the module object in the inner loop measured slower.
const MATCH = SCORE.match;
const GAP_START = SCORE.gapStart;
const GAP_EXTENSION = SCORE.gapExtension;
const BOUNDARY = SCORE.boundary;
const CONSECUTIVE = SCORE.consecutive;
const FIRST_CHAR_MULTIPLIER = SCORE.firstCharMultiplier;

/**
 * Continues `column` over text columns [from, to) of `units`, each for every started row from `lowestRow`
 * up, bottom up so that row r still reads row r - 1's cell of the previous column. `firstBonus` replaces
 * the bonus of column `from` when ≥ 0 (a name's first unit inside a path follows a `/`). Rows below
 * `lowestRow` keep their cells; the caller knows no cell that matters reads them.
 */
export function advanceColumn(
  column: AlignmentColumn,
  units: Uint16Array,
  bonus: Int8Array,
  from: number,
  to: number,
  firstBonus: number,
  lowestRow: number,
): void {
  const { query, scores, runs, runBonus } = column;
  const m = query.length;
  let rows = column.started;
  let top = column.best;
  for (let at = from; at < to; at += 1) {
    const unit = units[at];
    const unitBonus = at === from && firstBonus >= 0 ? firstBonus : bonus[at];
    let startsHere = -1;
    if (rows < m && unit === query[rows]) startsHere = rows++;
    for (let row = rows - 1; row >= lowestRow; row -= 1) {
      let score = row === startsHere ? 0 : scores[row] + (runs[row] === 0 ? GAP_EXTENSION : GAP_START);
      if (score < 0) score = 0;
      let run = 0;
      let first = 0;
      if (unit === query[row]) {
        let matchBonus = unitBonus;
        let matchRun = 1;
        let matchFirst = unitBonus;
        let matchScore: number;
        if (row === 0) matchScore = MATCH + unitBonus * FIRST_CHAR_MULTIPLIER;
        else {
          matchRun = runs[row - 1] + 1;
          if (matchRun > 1) {
            const inherited = runBonus[row - 1];
            // A word start inside a run begins a new run instead of inheriting a weaker first bonus.
            if (unitBonus >= BOUNDARY && unitBonus > inherited) matchRun = 1;
            else {
              matchBonus = unitBonus > inherited ? unitBonus : inherited;
              if (matchBonus < CONSECUTIVE) matchBonus = CONSECUTIVE;
              matchFirst = inherited;
            }
          }
          matchScore = scores[row - 1] + MATCH + matchBonus;
        }
        if (matchScore >= score) {
          score = matchScore;
          run = matchRun;
          first = matchFirst;
          if (row === m - 1 && score > top) top = score;
        }
      }
      scores[row] = score;
      runs[row] = run;
      runBonus[row] = first;
    }
  }
  column.started = rows;
  column.best = top;
}
