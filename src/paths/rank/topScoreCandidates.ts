/** Score ranges wider than this are left to the heap alone (never seen: a score is a few hundred at most). */
const MAX_SCORE_RANGE = 1 << 16;
/** Name lengths counted one by one; longer names share the last bucket (the heap orders them). */
const LENGTH_BUCKETS = 256;

// Reused from keystroke to keystroke (the result is read before the next call): a first letter keeps 7–40k of
// 134k slots, and a fresh array of them per keystroke was young-generation garbage while people typed (issue 26).
let scoreCounts = new Int32Array(64);
const lengthCounts = new Int32Array(LENGTH_BUCKETS);
let kept = new Int32Array(1024);

/**
 * The matching slots that can be among the first `limit` by score, then name length: every slot scoring more
 * than the `limit`-th best score, and of those scoring exactly that, the ones whose name is no longer than the
 * `limit`-th best length among them (ties included), in their order in `slots`. The bounded heap
 * (`selectTop.ts`) then orders only those, so the same top comes out: a slot left out is beaten by at least
 * `limit` others on score or name length, before any path is compared.
 *
 * For the first letters of a word nearly every name matches and thousands share the best score (every name
 * that starts with `c`), so the heap compared thousands of paths (issue 26); counting scores and lengths reads
 * typed arrays instead. `nameLength[slot]` is the length the ranker compares. The result is valid until the
 * next call.
 */
export function topScoreCandidates(
  scores: Int32Array,
  slots: Int32Array,
  count: number,
  limit: number,
  nameLength: Int32Array,
): Int32Array {
  if (count <= limit || limit <= 0) return slots.subarray(0, count);
  let min = scores[slots[0]];
  let max = min;
  for (let index = 1; index < count; index += 1) {
    const score = scores[slots[index]];
    if (score < min) min = score;
    else if (score > max) max = score;
  }
  if (max - min >= MAX_SCORE_RANGE) return slots.subarray(0, count);
  if (scoreCounts.length < max - min + 1) scoreCounts = new Int32Array(Math.max(max - min + 1, scoreCounts.length * 2));
  const histogram = scoreCounts;
  histogram.fill(0, 0, max - min + 1);
  for (let index = 0; index < count; index += 1) histogram[scores[slots[index]] - min] += 1;
  // The threshold score: the `limit`-th best. `above` slots score more; `needed` more are wanted at it.
  let above = 0;
  let threshold = max;
  while (above + histogram[threshold - min] < limit) {
    above += histogram[threshold - min];
    threshold -= 1;
  }
  const needed = limit - above;
  const atThreshold = histogram[threshold - min];
  // The longest name kept at the threshold: the `needed`-th shortest there.
  let longest = LENGTH_BUCKETS - 1;
  if (atThreshold > needed) {
    lengthCounts.fill(0);
    for (let index = 0; index < count; index += 1) {
      const slot = slots[index];
      if (scores[slot] === threshold) lengthCounts[Math.min(nameLength[slot], LENGTH_BUCKETS - 1)] += 1;
    }
    let shorter = 0;
    longest = 0;
    while (shorter + lengthCounts[longest] < needed) shorter += lengthCounts[longest++];
  }
  if (above === 0 && threshold === min && longest === LENGTH_BUCKETS - 1) return slots.subarray(0, count);
  if (kept.length < count) kept = new Int32Array(Math.max(count, kept.length * 2));
  let next = 0;
  for (let index = 0; index < count; index += 1) {
    const slot = slots[index];
    const score = scores[slot];
    if (score > threshold || (score === threshold && (longest === LENGTH_BUCKETS - 1 || nameLength[slot] <= longest))) kept[next++] = slot;
  }
  return kept.subarray(0, next);
}
