import { SCORE } from './matchBonus';

/**
 * An fzf-v2-style fuzzy match (a Smith-Waterman variant in which every query character must match, in
 * order): the best-scoring alignment wins, not the leftmost one, so `ff` lands on `fuzzy-finder`'s word
 * starts. Written for this project after reading fzf's `algo.go`. The text is `length` folded units from
 * `start` in `units`, with the bonus of matching each in `bonus` (`foldedUnits.ts`); the query is folded.
 * Scores only, unless matched columns are asked for, which costs a full matrix and is done for returned
 * rows only.
 */

/** No match: the query is not a subsequence of the text. */
export const NO_MATCH = -1;

// Module-level copies: reading `SCORE.x` through the module object in the inner loop measured ~30% slower.
const MATCH = SCORE.match;
const GAP_START = SCORE.gapStart;
const GAP_EXTENSION = SCORE.gapExtension;
const BOUNDARY = SCORE.boundary;
const CONSECUTIVE = SCORE.consecutive;
const FIRST_CHAR_MULTIPLIER = SCORE.firstCharMultiplier;
const BEST_BONUS = SCORE.boundaryWhite;

let rowScores = new Int32Array(256);
let rowRuns = new Int32Array(256);
let nextScores = new Int32Array(256);
let nextRuns = new Int32Array(256);
let firstAt = new Int32Array(64);
let lastAt = new Int32Array(64);

/** Score of the best alignment of `query` in the text, or NO_MATCH. */
export function fuzzyScore(query: string, units: Uint16Array, bonus: Int8Array, start: number, length: number): number {
  return align(query, units, bonus, start, length, null);
}

/**
 * `fuzzyScore` of a one-unit query (`char`), for the ranker's loop over a first letter's ~100k names: the same
 * score as `align` gives through `alignOneUnit`, without its bookkeeping for longer queries.
 */
export function fuzzyScoreOneUnit(char: number, units: Uint16Array, bonus: Int8Array, start: number, length: number): number {
  let best = -1;
  const end = start + length;
  for (let at = start; at < end; at += 1) {
    if (units[at] !== char || bonus[at] <= best) continue;
    best = bonus[at];
    if (best === BEST_BONUS) break;
  }
  return best < 0 ? NO_MATCH : MATCH + best * FIRST_CHAR_MULTIPLIER;
}

/** Matched columns (relative to `start`, ascending) of the best alignment; empty when there is none. */
export function fuzzyColumns(query: string, units: Uint16Array, bonus: Int8Array, start: number, length: number): number[] {
  const columns: number[] = [];
  align(query, units, bonus, start, length, columns);
  return columns;
}

/** Best score or NO_MATCH; when `columns` is given, it receives the matched columns. */
function align(query: string, units: Uint16Array, bonus: Int8Array, start: number, n: number, columns: number[] | null): number {
  const m = query.length;
  if (m === 0 || m > n) return NO_MATCH;
  if (firstAt.length < m) {
    firstAt = new Int32Array(m * 2);
    lastAt = new Int32Array(m * 2);
  }
  // Earliest column of each query unit in a match (greedy from the left); none → no match.
  let column = 0;
  for (let row = 0; row < m; row += 1) {
    const char = query.charCodeAt(row);
    while (column < n && units[start + column] !== char) column += 1;
    if (column === n) return NO_MATCH;
    firstAt[row] = column;
    column += 1;
  }
  if (m === 1) return alignOneUnit(query.charCodeAt(0), units, bonus, start, n, firstAt[0], columns);
  // Latest column of each query unit in a match (greedy from the right). Row r can only match in
  // [firstAt[r], lastAt[r]]; past lastAt[r] its cells are read by row r+1 only up to lastAt[r+1] - 1.
  // On long paths this skips three cells in four of the full matrix.
  column = n - 1;
  for (let row = m - 1; row >= 0; row -= 1) {
    const char = query.charCodeAt(row);
    while (units[start + column] !== char) column -= 1;
    lastAt[row] = column;
    column -= 1;
  }
  ensureCapacity(n);
  let previousScores = rowScores;
  let previousRuns = rowRuns;
  let currentScores = nextScores;
  let currentRuns = nextRuns;
  const taken = columns !== null ? new Uint8Array(m * n) : null;
  for (let row = 0; row < m; row += 1) {
    const char = query.charCodeAt(row);
    const end = row < m - 1 ? lastAt[row + 1] - 1 : lastAt[row];
    let gapCost: number = GAP_START;
    let left = 0;
    for (let col = firstAt[row]; col <= end; col += 1) {
      let score = left + gapCost;
      if (score < 0) score = 0;
      let run = 0;
      if (units[start + col] === char) {
        let matchBonus = bonus[start + col];
        let matchScore: number;
        if (row === 0) {
          matchScore = MATCH + matchBonus * FIRST_CHAR_MULTIPLIER;
          run = 1;
        } else {
          // Row r reads row r-1 only where it matches, at col - 1 in [firstAt[r-1], lastAt[r] - 1]: computed.
          run = previousRuns[col - 1] + 1;
          if (run > 1) {
            // The bonus of the run's first column (matched by an earlier row, so it was a match there too).
            const runBonus = bonus[start + col - run + 1];
            // A word start inside a run begins a new run instead of inheriting a weaker first bonus.
            if (matchBonus >= BOUNDARY && matchBonus > runBonus) run = 1;
            else matchBonus = Math.max(matchBonus, runBonus, CONSECUTIVE);
          }
          matchScore = previousScores[col - 1] + MATCH + matchBonus;
        }
        if (matchScore >= score) score = matchScore;
        else run = 0;
      }
      currentScores[col] = score;
      currentRuns[col] = run;
      if (taken !== null) taken[row * n + col] = run > 0 ? 1 : 0;
      gapCost = run === 0 ? GAP_EXTENSION : GAP_START;
      left = score;
    }
    const scores = previousScores;
    const runs = previousRuns;
    previousScores = currentScores;
    previousRuns = currentRuns;
    currentScores = scores;
    currentRuns = runs;
  }
  let best = -1;
  let bestColumn = -1;
  const lastChar = query.charCodeAt(m - 1);
  for (let col = firstAt[m - 1]; col <= lastAt[m - 1]; col += 1) {
    if (units[start + col] === lastChar && previousRuns[col] > 0 && previousScores[col] > best) {
      best = previousScores[col];
      bestColumn = col;
    }
  }
  if (bestColumn < 0) return NO_MATCH;
  if (columns !== null && taken !== null) columns.push(...backtrack(taken, n, m, bestColumn));
  return best;
}

/** One unit (the first keystroke, the most hits): the best-placed occurrence, no matrix needed. */
function alignOneUnit(
  char: number,
  units: Uint16Array,
  bonus: Int8Array,
  start: number,
  n: number,
  first: number,
  columns: number[] | null,
): number {
  let bestBonus = -1;
  let bestColumn = first;
  for (let col = first; col < n; col += 1) {
    if (units[start + col] !== char || bonus[start + col] <= bestBonus) continue;
    bestBonus = bonus[start + col];
    bestColumn = col;
    if (bestBonus === BEST_BONUS) break;
  }
  columns?.push(bestColumn);
  return MATCH + bestBonus * FIRST_CHAR_MULTIPLIER;
}

function backtrack(taken: Uint8Array, n: number, m: number, lastColumn: number): number[] {
  const columns: number[] = [];
  let row = m - 1;
  let col = lastColumn;
  while (row >= 0 && col >= 0) {
    if (taken[row * n + col] === 1) {
      columns.push(col);
      row -= 1;
    }
    col -= 1;
  }
  return columns.reverse();
}

function ensureCapacity(n: number): void {
  if (rowScores.length >= n) return;
  const size = Math.max(n, rowScores.length * 2);
  rowScores = new Int32Array(size);
  rowRuns = new Int32Array(size);
  nextScores = new Int32Array(size);
  nextRuns = new Int32Array(size);
}
