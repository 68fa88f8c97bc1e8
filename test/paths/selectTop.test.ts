import { expect } from 'chai';
import fc from 'fast-check';
import { selectTop } from '../../src/paths/rank/selectTop';

describe('selectTop', () => {
  it('returns what sort-then-slice returns (property)', () => {
    const compare = (a: [number, number], b: [number, number]) => a[0] - b[0] || a[1] - b[1];
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 5 }), fc.integer())), fc.nat(40), (items, count) => {
        expect(selectTop(items, count, compare)).to.deep.equal([...items].sort(compare).slice(0, count));
      }),
      { numRuns: 200 },
    );
  });

  it('leaves its input untouched', () => {
    const items = [3, 1, 2];
    selectTop(items, 2, (a, b) => a - b);
    expect(items).to.deep.equal([3, 1, 2]);
  });
});
