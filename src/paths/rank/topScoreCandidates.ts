/** Score ranges wider than this are left to the heap alone (never seen: a score is a few hundred at most). */
const MAX_SCORE_RANGE = 1 << 16;

/**
 * The matching slots that can be among the first `limit` by score: every slot scoring at least the `limit`-th
 * best score (ties included), in their order in `slots`. The bounded heap (`selectTop.ts`) then orders only
 * those, so the same top comes out: a slot scoring less is beaten by at least `limit` others. For the first
 * letters of a word nearly every name matches, and comparing 100k slots one by one against the heap's worst
 * was a fifth of a keystroke's ranking (issue 26); counting scores reads two typed arrays instead.
 */
export function topScoreCandidates(scores: Int32Array, slots: Int32Array, count: number, limit: number): Int32Array {
  if (count <= limit || limit <= 0) return slots.subarray(0, count);
  let min = scores[slots[0]];
  let max = min;
  for (let index = 1; index < count; index += 1) {
    const score = scores[slots[index]];
    if (score < min) min = score;
    else if (score > max) max = score;
  }
  if (max - min >= MAX_SCORE_RANGE) return slots.subarray(0, count);
  const histogram = new Int32Array(max - min + 1);
  for (let index = 0; index < count; index += 1) histogram[scores[slots[index]] - min] += 1;
  let kept = 0;
  let threshold = max;
  while (threshold > min) {
    kept += histogram[threshold - min];
    if (kept >= limit) break;
    threshold -= 1;
  }
  if (threshold === min) return slots.subarray(0, count);
  const candidates = new Int32Array(kept);
  let next = 0;
  for (let index = 0; index < count; index += 1) {
    const slot = slots[index];
    if (scores[slot] >= threshold) candidates[next++] = slot;
  }
  return candidates;
}
