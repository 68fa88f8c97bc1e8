import { map, type OperatorFunction } from 'rxjs';
import { comparePaths, firstByPath } from './firstByPath';
import { nameIndexOf } from '../score/nameIndex';
import { positionsOfUnits, prepareQuery, type PreparedQuery } from '../score/scoreEntry';
import { scoreListing } from '../score/scoreListing';
import { selectTop } from './selectTop';
import { topScoreCandidates } from './topScoreCandidates';
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

/**
 * The scores and matching slots of the latest ranking, reused by the next one: two arrays of a listing's size
 * (1 MB for 134k entries) per keystroke were garbage the collector swept while people typed (issue 26). A
 * ranking whose arrays a later one took scores its listing again if asked for its top after that.
 */
const scratch = { scores: new Int32Array(0), slots: new Int32Array(0), owner: null as object | null };

function ranked(query: PreparedQuery, entries: readonly WalkEntry[]): Ranking {
  const index = nameIndexOf(entries);
  const owner = {};
  if (scratch.scores.length < entries.length) {
    scratch.scores = new Int32Array(entries.length);
    scratch.slots = new Int32Array(entries.length);
  }
  scratch.owner = owner;
  let scores = scratch.scores;
  let slots = scratch.slots;
  const count = scoreListing(query, entries, index, scores, slots);
  const own = (): void => {
    if (scratch.owner === owner || scores !== scratch.scores) return;
    scores = new Int32Array(entries.length);
    slots = new Int32Array(entries.length);
    scoreListing(query, entries, index, scores, slots);
  };
  const nameLength = index.nameLength;
  const byScore = (a: number, b: number): number =>
    scores[b] - scores[a] || nameLength[a] - nameLength[b] || comparePaths(entries[a], entries[b]);
  return {
    count,
    top: (limit) => {
      own();
      return selectTop(topScoreCandidates(scores, slots, count, limit, nameLength), limit, byScore).map((slot) => ({
        entry: entries[slot],
        score: scores[slot],
        slot,
      }));
    },
    positionsOf: (hit) => {
      const start = index.start[hit.slot];
      return positionsOfUnits(query, hit.entry, index, start, index.start[hit.slot + 1] - start);
    },
  };
}
