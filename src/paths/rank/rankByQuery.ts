import { map, type OperatorFunction } from 'rxjs';
import { comparePaths, firstByPath } from './firstByPath';
import { nameIndexOf } from '../score/nameIndex';
import { positionsOfUnits, prepareQuery, type PreparedQuery } from '../score/scoreEntry';
import { scoreListing } from '../score/scoreListing';
import { selectTop } from './selectTop';
import type { Listing, WalkEntry } from '../walk/walkEntry';

export interface RankedHit {
  readonly entry: WalkEntry;
  readonly score: number;
  /** The entry's index in the ranked listing (-1 without a query: no positions to compute). */
  readonly slot: number;
}

/**
 * Every matching entry of the complete walk with its score, and the total order over them (rule 5: the
 * walk finishes first, then ranking). Truncation asks for the first `limit` (selected without sorting
 * 130k entries); positions are computed only for the rows that are returned.
 */
export interface Ranking {
  /** How many entries match: all of them without a query. */
  readonly count: number;
  /** The first `limit` hits in ranking order. */
  top(limit: number): RankedHit[];
  positionsOf(hit: RankedHit): number[];
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
  if (query === undefined || query.length === 0) return map(unranked);
  const prepared = prepareQuery(query);
  return map((listing) => ranked(prepared, listing.entries));
}

function unranked(listing: Listing): Ranking {
  const entries = listing.entries;
  return {
    count: entries.length,
    top: (limit) => firstByPath(listing, limit).map((entry) => ({ entry, score: 0, slot: -1 })),
    positionsOf: () => [],
  };
}

function ranked(query: PreparedQuery, entries: readonly WalkEntry[]): Ranking {
  const index = nameIndexOf(entries);
  const scores = new Int32Array(entries.length);
  const slots = new Int32Array(entries.length);
  const count = scoreListing(query, entries, index, scores, slots);
  const byScore = (a: number, b: number): number =>
    scores[b] - scores[a] || entries[a].name.length - entries[b].name.length || comparePaths(entries[a], entries[b]);
  return {
    count,
    top: (limit) =>
      selectTop(slots.subarray(0, count), limit, byScore).map((slot) => ({ entry: entries[slot], score: scores[slot], slot })),
    positionsOf: (hit) => {
      const start = index.start[hit.slot];
      return positionsOfUnits(query, hit.entry, index, start, index.start[hit.slot + 1] - start);
    },
  };
}
