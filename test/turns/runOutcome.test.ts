import { expect } from 'chai';
import { tokenCountsOf } from '../../src/turns/runOutcome';
import { SdkUsageSchema } from '../../src/protocol/sdkEvents';

/** pi's usage as it may arrive (partial, odd numbers) → the integer counts thread events promise. */
const cases: Array<{ name: string; usage: unknown; counts: ReturnType<typeof tokenCountsOf> }> = [
  {
    name: 'counts cache reads and writes inside inputTokens, cache reads again as cachedInputTokens',
    usage: { input: 100, output: 20, cacheRead: 300, cacheWrite: 50, totalTokens: 470 },
    counts: { totalTokens: 470, inputTokens: 450, cachedInputTokens: 300, outputTokens: 20 },
  },
  {
    name: 'rounds fractional counts to integers',
    usage: { input: 10.6, output: 2.4, cacheRead: 0.5, cacheWrite: 0, totalTokens: 13.5 },
    counts: { totalTokens: 14, inputTokens: 12, cachedInputTokens: 1, outputTokens: 2 },
  },
  {
    name: 'reads negative, non-finite, non-numeric and missing counts as 0, and totals input + output when pi says 0',
    usage: { input: -5, output: Number.NaN, cacheRead: 'many', totalTokens: Infinity },
    counts: { totalTokens: 0, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0 },
  },
  {
    name: 'totals input + output when pi reports no total',
    usage: { input: 7, output: 3 },
    counts: { totalTokens: 10, inputTokens: 7, cachedInputTokens: 0, outputTokens: 3 },
  },
];

describe('tokenCountsOf() (thread/tokenUsage/updated fields are integers)', () => {
  for (const { name, usage, counts } of cases) {
    it(name, () => {
      const result = tokenCountsOf(SdkUsageSchema.parse(usage));
      expect(result).to.deep.equal(counts);
      for (const value of Object.values(result)) expect(Number.isSafeInteger(value)).to.equal(true);
    });
  }
});
