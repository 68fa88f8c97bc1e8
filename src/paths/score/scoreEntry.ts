import { foldForMatch, isAscii, type FoldedText } from './foldForMatch';
import { foldedUnitsOf, type FoldedUnits } from './foldedUnits';
import { NO_MATCH, fuzzyColumns, fuzzyScore } from './fuzzyMatch';
import { SCORE } from './matchBonus';
import { assemblePathUnits } from './pathUnits';
import type { WalkEntry } from '../walk/walkEntry';

/** A query folded once per search. A `/` in it means "match the relative path" (issue 3). */
export interface PreparedQuery {
  readonly folded: FoldedText;
  readonly matchesPath: boolean;
  /** The part that should equal a name for the exact/prefix bonuses: after the last `/`. */
  readonly nameFolded: string;
}

export function prepareQuery(raw: string): PreparedQuery {
  const folded = foldForMatch(raw);
  const matchesPath = raw.includes('/');
  const nameFolded = folded.text.slice(folded.text.lastIndexOf('/') + 1);
  return { folded, matchesPath, nameFolded };
}

/**
 * Name-query score of an entry whose folded name is `name` [start, start + length), or NO_MATCH. On top
 * of the fuzzy score of the name: the exact name beats every name that merely contains it
 * (`index.ts`/`reindex.ts`, `.env`/`.env.example`), and a name that starts with the query, or whose stem
 * equals it, gets a nudge (`index` → `index.ts` before `indexer.ts`). The ranker calls this with its
 * `NameIndex`; `scoreEntry` with the units of one name. Path queries: `pathAlignment.ts` + `nameBonus`.
 */
export function scoreNameUnits(query: PreparedQuery, name: FoldedUnits, start: number, length: number): number {
  const fuzzy = fuzzyScore(query.folded.text, name.units, name.bonus, start, length);
  if (fuzzy === NO_MATCH) return NO_MATCH;
  return fuzzy + nameBonus(query, name.units, start, length);
}

/** UTF-16 indexes into `entry.name` of the best alignment (path queries: the part inside the name). */
export function positionsOfUnits(query: PreparedQuery, entry: WalkEntry, name: FoldedUnits, start: number, length: number): number[] {
  let nameColumns: number[];
  if (query.matchesPath) {
    const path = assemblePathUnits(entry, name, start, length);
    nameColumns = fuzzyColumns(query.folded.text, path.units, path.bonus, 0, path.length)
      .filter((column) => column >= path.nameColumn)
      .map((column) => column - path.nameColumn);
  } else {
    nameColumns = fuzzyColumns(query.folded.text, name.units, name.bonus, start, length);
  }
  if (isAscii(entry.name)) return nameColumns;
  // Folded units → original indexes: an NFD mark or an expanded lowercase points at its character.
  const origin = foldForMatch(entry.name).origin!;
  return [...new Set(nameColumns.map((column) => origin[column]))].sort((a, b) => a - b);
}

/**
 * Taken off the score of an ignored entry (`WalkEntry.ignored`: a `.gitignore` match, the service's data folder),
 * so it ranks after every entry that is not ignored and matches as well or up to two matched letters' worth less
 * (`dist/a/readme.js` after `docs/README.md` for `readme`, `dist/…/threadSegment.js` after `src/…/threadSegment.ts`),
 * as VS Code and `fd` users expect. Smaller than the exact-name bonus, so an ignored file whose name is the query
 * still comes before any other name: it stays findable (rule 6). The score is what the answer says, so the
 * ranking stays by descending score (rule 4).
 */
export const IGNORED_PENALTY = 2 * SCORE.match;

/**
 * The score of one entry on its own, for callers without a listing. It folds a path query's whole path
 * at once rather than putting it together from its directory's units as the ranker does, so tests use it
 * as the reference the ranker must agree with.
 */
export function scoreEntry(query: PreparedQuery, entry: WalkEntry): number {
  const score = matchScore(query, entry);
  return score === NO_MATCH || entry.ignored !== true ? score : score - IGNORED_PENALTY;
}

function matchScore(query: PreparedQuery, entry: WalkEntry): number {
  const name = foldedUnitsOf(entry.name);
  if (!query.matchesPath) return scoreNameUnits(query, name, 0, name.units.length);
  const path = foldedUnitsOf(entry.path);
  const fuzzy = fuzzyScore(query.folded.text, path.units, path.bonus, 0, path.units.length);
  if (fuzzy === NO_MATCH) return NO_MATCH;
  return fuzzy + nameBonus(query, name.units, 0, name.units.length);
}

/** The positions of one entry on its own (see `scoreEntry`). */
export function entryPositions(query: PreparedQuery, entry: WalkEntry): number[] {
  if (!query.matchesPath) {
    const name = foldedUnitsOf(entry.name);
    return positionsOfUnits(query, entry, name, 0, name.units.length);
  }
  const path = foldedUnitsOf(entry.path);
  const origin = foldForMatch(entry.path).origin;
  const nameStart = entry.path.length - entry.name.length;
  const indexes = fuzzyColumns(query.folded.text, path.units, path.bonus, 0, path.units.length)
    .map((column) => (origin === null ? column : origin[column]))
    .filter((index) => index >= nameStart)
    .map((index) => index - nameStart);
  return [...new Set(indexes)];
}

/** The exact-name and prefix bonuses added to a fuzzy score (0 when neither applies). */
export function nameBonus(query: PreparedQuery, units: Uint16Array, start: number, length: number): number {
  const wanted = query.nameFolded;
  if (wanted.length === 0 || !startsWith(units, start, length, wanted)) return 0;
  // Larger than the best fuzzy score a query of this length can reach, so exact always ranks first.
  if (length === wanted.length) return exactNameBonus(query.folded.text.length);
  // Starts with the query; one more if the query is the whole stem (`index` of `index.ts`).
  return units[start + wanted.length] === DOT ? SCORE.match * 2 : SCORE.match;
}

const DOT = 0x2e;

function startsWith(units: Uint16Array, start: number, length: number, prefix: string): boolean {
  if (prefix.length > length) return false;
  for (let index = 0; index < prefix.length; index += 1) {
    if (units[start + index] !== prefix.charCodeAt(index)) return false;
  }
  return true;
}

function exactNameBonus(queryLength: number): number {
  const bestPerChar = SCORE.match + SCORE.boundaryWhite * SCORE.firstCharMultiplier;
  return bestPerChar * (queryLength + 1);
}
