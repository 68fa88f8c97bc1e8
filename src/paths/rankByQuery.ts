import { map, type OperatorFunction } from 'rxjs';
import { NO_MATCH } from './fuzzyMatch';
import { entryPositions, prepareQuery, scoreEntry } from './scoreEntry';
import type { Listing, WalkEntry } from './walkEntry';

export interface RankedHit {
  readonly entry: WalkEntry;
  readonly score: number;
}

/**
 * Every matching entry of the complete walk with its score, and the total order over them (rule 5: the
 * walk finishes first, then ranking). The order is kept as a comparator so truncation can select the first
 * `limit` without sorting 130k entries; positions are computed only for the rows that are returned.
 */
export interface Ranking {
  readonly hits: readonly RankedHit[];
  readonly compare: (a: RankedHit, b: RankedHit) => number;
  readonly positionsOf: (hit: RankedHit) => number[];
}

/**
 * Scores a listing against `query`. No query (absent or empty): every entry, score 0, path ascending.
 * With a query: matching entries only, score descending, then shorter name, then path — a total order,
 * so the answer never depends on the order the disk returned entries in.
 *
 * ```
 * listing:  --L--|
 * rankByQuery('idx')
 * ranking:  --R--|
 * ```
 */
export function rankByQuery(query: string | undefined): OperatorFunction<Listing, Ranking> {
  if (query === undefined || query.length === 0) {
    return map((listing) => ({
      hits: listing.entries.map((entry) => ({ entry, score: 0 })),
      compare: byPath,
      positionsOf: () => [],
    }));
  }
  const prepared = prepareQuery(query);
  return map((listing) => {
    const hits: RankedHit[] = [];
    for (const entry of listing.entries) {
      const score = scoreEntry(prepared, entry);
      if (score !== NO_MATCH) hits.push({ entry, score });
    }
    return { hits, compare: byScore, positionsOf: (hit) => entryPositions(prepared, hit.entry) };
  });
}

function byPath(a: RankedHit, b: RankedHit): number {
  return a.entry.path < b.entry.path ? -1 : a.entry.path > b.entry.path ? 1 : 0;
}

function byScore(a: RankedHit, b: RankedHit): number {
  return b.score - a.score || a.entry.name.length - b.entry.name.length || byPath(a, b);
}
