import { expect } from 'chai';
import fc from 'fast-check';
import { nestsDeeperThan } from '../../src/protocol/jsonTextScan';

/** Nesting of arrays and objects of a parsed value, counted as the intake counts it: `1` for `[]` or `{}`. */
function depthOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + children.reduce<number>((deepest, child) => Math.max(deepest, depthOf(child)), 0);
}

/** Strings that hold what the scan must not count: brackets, quotes, backslashes, and escapes of them. */
const trickyString = fc.oneof(fc.string(), fc.constantFrom('[', ']', '{', '}', '"', '\\', '\\"', '"[', '\\\\', '[{"a":[', '\u2028'));
const trickyValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    trickyString,
    fc.integer(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(trickyString, tie('value'), { maxKeys: 4 }),
  ),
})).value;

describe('nestsDeeperThan (the intake refuses frames its hosts cannot re-serialise)', () => {
  const cases: Array<[string, string, number, boolean]> = [
    ['a flat object', '{"a":1}', 1, false],
    ['exactly the limit', '[[[]]]', 3, false],
    ['one level past the limit', '[[[[]]]]', 3, true],
    ['objects and arrays count alike', '{"a":[{"b":[]}]}', 3, true],
    ['brackets inside a string do not count', '{"a":"[[[[[[{{{{"}', 1, false],
    ['an escaped quote does not end the string', '{"a":"\\"[[[[[["}', 1, false],
    ['an escaped backslash before the quote does end it', '{"a":"\\\\",[[[[]]]]}', 4, true],
    ['siblings do not add up', '[[],[],[],[]]', 2, false],
  ];
  for (const [name, text, max, deeper] of cases) {
    it(`${name}: ${text} with limit ${max} → ${deeper}`, () => {
      expect(nestsDeeperThan(text, max)).to.equal(deeper);
    });
  }

  it('property: agrees with the depth of the parsed value for any JSON text, at every limit around it', () => {
    fc.assert(
      fc.property(trickyValue, (value) => {
        const text = JSON.stringify(value);
        const depth = depthOf(value);
        for (let max = Math.max(0, depth - 2); max <= depth + 1; max++) {
          expect(nestsDeeperThan(text, max), `${text} at ${max}`).to.equal(depth > max);
        }
      }),
      { numRuns: 500 },
    );
  });
});
