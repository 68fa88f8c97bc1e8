import { foldForMatch, type FoldedText } from './foldForMatch';
import { NO_MATCH, fuzzyPositions, fuzzyScore } from './fuzzyMatch';
import { SCORE } from './matchBonus';
import type { WalkEntry } from './walkEntry';

/** A query folded once per search. A `/` in it means "match the relative path" (issue 3). */
export interface PreparedQuery {
  readonly folded: string;
  readonly matchesPath: boolean;
  /** The part that should equal a name for the exact/prefix bonuses: after the last `/`. */
  readonly nameFolded: string;
  readonly stemFolded: string;
}

export function prepareQuery(raw: string): PreparedQuery {
  const folded = foldForMatch(raw).text;
  const matchesPath = raw.includes('/');
  const nameFolded = folded.slice(folded.lastIndexOf('/') + 1);
  return { folded, matchesPath, nameFolded, stemFolded: `${nameFolded}.` };
}

/**
 * Score of an entry, or NO_MATCH. On top of the fuzzy score: the exact name beats every name that merely
 * contains it (`index.ts`/`reindex.ts`, `.env`/`.env.example`), and a name that starts with the query,
 * or whose stem equals it, gets a nudge (`index` → `index.ts` before `indexer.ts`).
 */
export function scoreEntry(query: PreparedQuery, entry: WalkEntry): number {
  const name = foldedNameOf(entry);
  const fuzzy = query.matchesPath
    ? fuzzyScore(query.folded, entry.path, foldedPathOf(entry))
    : fuzzyScore(query.folded, entry.name, name);
  if (fuzzy === NO_MATCH) return NO_MATCH;
  return fuzzy + nameBonus(query, name.text);
}

/** UTF-16 indexes into `entry.name` of the best alignment (path queries: the part inside the name). */
export function entryPositions(query: PreparedQuery, entry: WalkEntry): number[] {
  if (!query.matchesPath) return fuzzyPositions(query.folded, entry.name, foldedNameOf(entry));
  const nameStart = entry.path.length - entry.name.length;
  return fuzzyPositions(query.folded, entry.path, foldedPathOf(entry))
    .filter((index) => index >= nameStart)
    .map((index) => index - nameStart);
}

function nameBonus(query: PreparedQuery, foldedName: string): number {
  const wanted = query.nameFolded;
  if (wanted.length === 0) return 0;
  // Larger than the best fuzzy score a query of this length can reach, so exact always ranks first.
  if (foldedName === wanted) return exactNameBonus(query.folded.length);
  let bonus = 0;
  if (foldedName.startsWith(wanted)) bonus += SCORE.match;
  if (foldedName.startsWith(query.stemFolded)) bonus += SCORE.match;
  return bonus;
}

function exactNameBonus(queryLength: number): number {
  const bestPerChar = SCORE.match + SCORE.boundaryWhite * SCORE.firstCharMultiplier;
  return bestPerChar * (queryLength + 1);
}

function foldedNameOf(entry: WalkEntry): FoldedText {
  return (entry.foldedName ??= foldForMatch(entry.name));
}

function foldedPathOf(entry: WalkEntry): FoldedText {
  return (entry.foldedPath ??= foldForMatch(entry.path));
}
