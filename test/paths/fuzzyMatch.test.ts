import { expect } from 'chai';
import fc from 'fast-check';
import { foldForMatch } from '../../src/paths/score/foldForMatch';
import { entryPositions, prepareQuery, scoreEntry } from '../../src/paths/score/scoreEntry';
import { NO_MATCH } from '../../src/paths/score/fuzzyMatch';
import type { WalkEntry } from '../../src/paths/walk/walkEntry';

function entry(path: string): WalkEntry {
  return { kind: 'file', path, name: path.slice(path.lastIndexOf('/') + 1) };
}
const score = (query: string, path: string) => scoreEntry(prepareQuery(query), entry(path));
const positions = (query: string, path: string) => entryPositions(prepareQuery(query), entry(path));

describe('fuzzy scorer', () => {
  describe('ranks what a person expects first', () => {
    const cases: Array<[query: string, better: string, worse: string, why: string]> = [
      ['index', 'index.ts', 'reindex.ts', 'exact stem beats a name that merely contains it'],
      ['router', 'router.js', 'user-router-helpers.js', 'name start beats a word start later on'],
      ['.env', '.env', '.env.example', 'the exact name beats a longer name'],
      ['index', 'index.ts', 'indexer.ts', 'the stem equals the query'],
      ['ff', 'fuzzy-finder', 'fuzzyfinder', 'a match after `-` starts a word'],
      ['fb', 'fooBar.ts', 'foobar.ts', 'a camelCase hump starts a word'],
      ['ut', 'user_test.go', 'output.go', 'a match after `_` starts a word'],
      ['abc', 'abc.md', 'a-b-c.md', 'a consecutive run beats scattered word starts'],
      ['cfg', 'my.cfg', 'cxfxg', 'a match after `.` starts a word'],
      ['readme', 'README.md', 'docs-readme-old.md', 'case does not matter; the start wins'],
    ];
    for (const [query, better, worse, why] of cases) {
      it(`${query}: ${better} above ${worse} (${why})`, () => {
        expect(score(query, better)).to.be.greaterThan(score(query, worse));
      });
    }
  });

  describe('positions are UTF-16 indexes into the original name', () => {
    const cases: Array<[query: string, path: string, expected: number[], what: string]> = [
      ['idx', 'src/index.ts', [0, 2, 4], 'plain ASCII'],
      ['INDEX', 'Index.ts', [0, 1, 2, 3, 4], 'case-insensitive'],
      ['ff', 'fuzzy-finder', [0, 6], 'best alignment, not leftmost'],
      ['caf\u00e9', 'cafe\u0301.md', [0, 1, 2, 3, 4], 'NFC query, NFD name: the accent mark is highlighted too'],
      ['cafe\u0301', 'caf\u00e9.md', [0, 1, 2, 3], 'NFD query, NFC name'],
      ['x', '\u0130x.ts', [1], 'a character whose lowercase is longer (İ → i̇) shifts nothing'],
      ['\u0130x', '\u0130x.ts', [0, 1], 'matching that character itself'],
      ['i', '\u0130x.ts', [0], 'its folded first unit'],
      ['\u{1d49c}b', 'x\u{1d49c}b', [1, 2, 3], 'astral characters take two units'],
      ['wf/ci', '.github/workflows/ci.yml', [0, 1], 'a `/` query matches the path; positions only inside the name'],
      ['github/', '.github/workflows/ci.yml', [], 'a path query matched outside the name has no name positions'],
      ['my file', 'docs/my file.txt', [0, 1, 2, 3, 4, 5, 6], 'spaces are ordinary characters'],
    ];
    for (const [query, path, expected, what] of cases) {
      it(`${JSON.stringify(query)} in ${JSON.stringify(path)}: ${what}`, () => {
        expect(positions(query, path)).to.deep.equal(expected);
      });
    }
  });

  describe('matches only subsequences', () => {
    const cases: Array<[query: string, path: string]> = [
      ['xyz', 'index.ts'],
      ['tsx', 'index.ts'],
      ['src/index', 'lib/index.ts'],
      ['indexx', 'index'],
    ];
    for (const [query, path] of cases) {
      it(`${query} does not match ${path}`, () => {
        expect(score(query, path)).to.equal(NO_MATCH);
        expect(positions(query, path)).to.deep.equal([]);
      });
    }
  });

  describe('positions (property)', () => {
    // NFC and NFD accents, a character whose lowercase is longer (İ), an astral character, CJK, separators.
    const charArb = fc.constantFrom('a', 'B', 'z', '0', ' ', '.', '-', '_', '\u00e9', 'e\u0301', '\u0130', '\u{1d49c}', '\u65e5', 'X');
    const caseArb = fc.constantFrom('keep', 'upper', 'lower');

    it("a query made of some of a name's characters matches it, at ascending UTF-16 indexes of those characters", () => {
      fc.assert(
        fc.property(
          fc.array(charArb, { minLength: 1, maxLength: 12 }),
          fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
          caseArb,
          (chars, picked, casing) => {
            const name = chars.join('');
            let query = chars.filter((_, index) => picked[index]).join('') || chars[0];
            if (casing === 'upper') query = query.toUpperCase();
            if (casing === 'lower') query = query.toLowerCase();
            expect(score(query, name), 'a subsequence always matches').to.not.equal(NO_MATCH);
            const found = positions(query, name);
            expect(found.length).to.be.greaterThan(0);
            found.forEach((index, at) => {
              expect(index).to.be.within(0, name.length - 1);
              if (at > 0) expect(index).to.be.greaterThan(found[at - 1]);
            });
            // The characters at those indexes, folded, hold the folded query in order.
            const highlighted = foldForMatch(found.map((index) => name[index]).join('')).text;
            const wanted = foldForMatch(query).text;
            let matched = 0;
            for (let unit = 0; unit < highlighted.length; unit += 1) if (highlighted[unit] === wanted[matched]) matched += 1;
            expect(matched, `${JSON.stringify(query)} in ${JSON.stringify(name)} at ${found}`).to.equal(wanted.length);
          },
        ),
        { numRuns: 300 },
      );
    });
  });
});
