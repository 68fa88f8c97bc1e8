import { of } from 'rxjs';
import type { Listing } from '../walk/walkEntry';
import { rankByQuery } from './rankByQuery';

/** Entries the warm-up ranks: enough calls for V8 to optimise the scorer, a few milliseconds at most. */
const WARM_ENTRIES = 4_096;
/** A letter, a pair, a name with a folder: the scorer's name and path branches, as typed. */
const WARM_QUERIES = ['e', 'in', 'se', 'src/i'];
const WARM_ROUNDS = 3;

let warmed = false;

/**
 * Ranks a few queries over a slice of the first listing the process keeps, once, while nobody waits: the first
 * keystrokes otherwise ran the scorer unoptimised over all 134k names (`c`, `co`, `con` each slower the first
 * time; issue 26). A slice, not the whole listing: the JIT needs calls, not names, and a keystroke typed during
 * the warm-up waits for it.
 */
export function warmRankingOnce(listing: Listing): void {
  if (warmed || listing.entries.length === 0) return;
  warmed = true;
  const slice: Listing = { ...listing, entries: listing.entries.slice(0, WARM_ENTRIES) };
  for (let round = 0; round < WARM_ROUNDS; round += 1) {
    for (const query of WARM_QUERIES) {
      of(slice)
        .pipe(rankByQuery(query))
        .subscribe((ranking) => ranking.top(50).forEach((hit) => ranking.positionsOf(hit)));
    }
  }
}
