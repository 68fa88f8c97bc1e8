import type { FoldedText } from './foldForMatch';
import { SCORE, bonusAt } from './matchBonus';

/**
 * An fzf-v2-style fuzzy match (a Smith-Waterman variant in which every query character must match, in
 * order): the best-scoring alignment wins, not the leftmost one, so `ff` lands on `fuzzy-finder`'s word
 * starts. Written for this project after reading fzf's `algo.go`; scores only, unless positions are asked
 * for, which costs a full matrix and is done for returned rows only.
 */

/** No match: the query is not a subsequence of the text. */
export const NO_MATCH = -1;

let rowScores = new Int32Array(256);
let rowRuns = new Int32Array(256);
let nextScores = new Int32Array(256);
let nextRuns = new Int32Array(256);
let bonuses = new Int8Array(256);
let firstAt = new Int32Array(64);

/** Score of the best alignment of `query` (already folded) in `text`, or NO_MATCH. */
export function fuzzyScore(query: string, original: string, text: FoldedText): number {
  return align(query, original, text, null);
}

/** Matched UTF-16 indexes in `original`, ascending and unique; empty when there is no match. */
export function fuzzyPositions(query: string, original: string, text: FoldedText): number[] {
  const columns: number[] = [];
  if (align(query, original, text, columns) === NO_MATCH) return [];
  const positions = columns.map((column) => (text.origin === null ? column : text.origin[column]));
  return [...new Set(positions)].sort((a, b) => a - b);
}

/** Best score or NO_MATCH; when `columns` is given, it receives the matched folded columns. */
function align(query: string, original: string, text: FoldedText, columns: number[] | null): number {
  const folded = text.text;
  const m = query.length;
  const n = folded.length;
  if (m === 0 || m > n) return NO_MATCH;
  if (firstAt.length < m) firstAt = new Int32Array(m * 2);
  // Earliest position of each query character in a greedy subsequence match; none → no match.
  let column = 0;
  for (let row = 0; row < m; row += 1) {
    column = folded.indexOf(query[row], column);
    if (column < 0) return NO_MATCH;
    firstAt[row] = column;
    column += 1;
  }
  const last = folded.lastIndexOf(query[m - 1]);
  if (m === 1) return alignOneChar(query, original, text, firstAt[0], columns);
  ensureCapacity(n);
  // Row r reads row r-1 only at columns >= firstAt[r] - 1 >= firstAt[r-1], all written by row r-1.
  const taken = columns !== null ? new Uint8Array(m * n) : null;
  for (let row = 0; row < m; row += 1) {
    const char = query.charCodeAt(row);
    let inGap = false;
    let left = 0;
    for (let col = firstAt[row]; col <= last; col += 1) {
      const gapScore = Math.max(left + (inGap ? SCORE.gapExtension : SCORE.gapStart), 0);
      let score = gapScore;
      let run = 0;
      if (folded.charCodeAt(col) === char) {
        // Bonuses are needed at matched columns only; a run's first column was matched by an earlier row.
        let bonus = bonusOfColumn(original, text, col);
        bonuses[col] = bonus;
        let matchScore: number;
        if (row === 0) {
          matchScore = SCORE.match + bonus * SCORE.firstCharMultiplier;
          run = 1;
        } else {
          run = rowRuns[col - 1] + 1;
          if (run > 1) {
            const runBonus = bonuses[col - run + 1];
            // A word start inside a run begins a new run instead of inheriting a weaker first bonus.
            if (bonus >= SCORE.boundary && bonus > runBonus) run = 1;
            else bonus = Math.max(bonus, runBonus, SCORE.consecutive);
          }
          matchScore = rowScores[col - 1] + SCORE.match + bonus;
        }
        if (matchScore >= gapScore) score = matchScore;
        else run = 0;
      }
      nextScores[col] = score;
      nextRuns[col] = run;
      if (taken !== null) taken[row * n + col] = run > 0 ? 1 : 0;
      inGap = run === 0;
      left = score;
    }
    [rowScores, nextScores] = [nextScores, rowScores];
    [rowRuns, nextRuns] = [nextRuns, rowRuns];
  }
  let best = -1;
  let bestColumn = -1;
  for (let col = firstAt[m - 1]; col <= last; col += 1) {
    if (folded.charCodeAt(col) === query.charCodeAt(m - 1) && rowScores[col] > best && rowRuns[col] > 0) {
      best = rowScores[col];
      bestColumn = col;
    }
  }
  if (bestColumn < 0) return NO_MATCH;
  if (columns !== null && taken !== null) columns.push(...backtrack(taken, n, m, bestColumn));
  return best;
}

/** One character (the first keystroke, the most hits): the best-placed occurrence, no matrix needed. */
function alignOneChar(
  query: string,
  original: string,
  text: FoldedText,
  first: number,
  columns: number[] | null,
): number {
  let best = -1;
  let bestColumn = first;
  for (let col = first; col >= 0; col = text.text.indexOf(query, col + 1)) {
    const score = SCORE.match + bonusOfColumn(original, text, col) * SCORE.firstCharMultiplier;
    if (score > best) {
      best = score;
      bestColumn = col;
    }
  }
  columns?.push(bestColumn);
  return best;
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

/** Units that continue one original character (NFD marks, expanded lowercase) add no bonus of their own. */
function bonusOfColumn(original: string, text: FoldedText, column: number): number {
  if (text.origin === null) return bonusAt(original, column);
  const index = text.origin[column];
  if (column > 0 && text.origin[column - 1] === index) return 0;
  return bonusAt(original, index);
}

function ensureCapacity(n: number): void {
  if (rowScores.length >= n) return;
  const size = Math.max(n, rowScores.length * 2);
  rowScores = new Int32Array(size);
  rowRuns = new Int32Array(size);
  nextScores = new Int32Array(size);
  nextRuns = new Int32Array(size);
  bonuses = new Int8Array(size);
}
