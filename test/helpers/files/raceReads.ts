/** How many reads answered each way (content or refusal code, as the caller names them). */
export type Tally = Record<string, number>;

export interface RaceReadsOptions {
  /** Reads to run at least. */
  reads: number;
  /** Outcomes the race must have shown (e.g. the inside content): reading goes on until each did. */
  seen: readonly string[];
  /** Reads in flight at once (default 1). */
  inFlight?: number;
}

/** Reads beyond `reads` at most, as a multiple of it, when a starved swapper shows one state only. */
const MAX_READS_FACTOR = 10;

/**
 * Runs `read` at least `reads` times and until every outcome of `seen` came up, so a swapper starved of CPU on a
 * loaded machine (stuck on one state for a while) cannot make the race untested. Stops at MAX_READS_FACTOR ×
 * `reads`: the caller's assertion on `seen` then says what was missing.
 */
export async function raceReads(read: () => Promise<string>, options: RaceReadsOptions): Promise<Tally> {
  const tally: Tally = {};
  let started = 0;
  const enough = () => started >= options.reads && options.seen.every((outcome) => (tally[outcome] ?? 0) > 0);
  const reader = async () => {
    while (!enough() && started < options.reads * MAX_READS_FACTOR) {
      started++;
      const outcome = await read();
      tally[outcome] = (tally[outcome] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: options.inFlight ?? 1 }, reader));
  return tally;
}

export function describeTally(tally: Tally): string {
  const total = Object.values(tally).reduce((sum, count) => sum + count, 0);
  return `${JSON.stringify(tally)} over ${total} reads`;
}
