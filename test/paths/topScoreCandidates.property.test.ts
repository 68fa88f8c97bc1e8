import { expect } from 'chai';
import fc from 'fast-check';
import { selectTop } from '../../src/paths/rank/selectTop';
import { topScoreCandidates } from '../../src/paths/rank/topScoreCandidates';

/**
 * The ranker keeps only the slots that can be among the first `limit` (by score, then name length) before ordering
 * them (issue 26): the first `limit` must be exactly those of ordering every matching slot, ties at the threshold
 * included, whatever the scores (negative for ignored entries), the name lengths (past the length buckets too),
 * their order, the slots that matched and the limit.
 */
describe('topScoreCandidates (property)', () => {
  it('the first `limit` of the candidates are the first `limit` of every matching slot', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: -40, max: 60 }), fc.oneof(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 300 }))), {
          minLength: 1,
          maxLength: 300,
        }),
        fc.integer({ min: 0, max: 320 }),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        (scored, limit, seed) => {
          const scores = Int32Array.from(scored.map(([score]) => score));
          const lengths = scored.map(([, length]) => length);
          // The matching slots: a seeded subset, in slot order as the ranker writes them.
          const slots = new Int32Array(scores.length);
          let count = 0;
          for (let slot = 0; slot < scores.length; slot += 1) if ((seed >>> (slot % 31)) & 1 || slot % 3 === 0) slots[count++] = slot;
          // Ties beyond score and name length are broken by slot, as the ranker breaks them by path.
          const compare = (a: number, b: number) => scores[b]! - scores[a]! || lengths[a]! - lengths[b]! || a - b;
          const expected = selectTop(slots.subarray(0, count), limit, compare);
          const candidates = topScoreCandidates(scores, slots, count, limit, Int32Array.from(lengths));
          expect(selectTop(candidates, limit, compare)).to.deep.equal(expected);
        },
      ),
      { numRuns: 3_000 },
    );
  });
});
