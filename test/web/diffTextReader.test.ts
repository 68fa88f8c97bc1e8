import { expect } from 'chai';
import { DiffTextReader } from '../../src/web/changes/diffTextReader';
import type { DiffFile, GitDiff } from '../../src/web/changes/types';

const file = (name: string, text: string): DiffFile => ({
  path: name,
  status: 'modified',
  binary: false,
  additions: 1,
  deletions: 0,
  hunks: [{ oldStart: 1, oldLines: 0, newStart: 1, newLines: 1, lines: [{ kind: 'add', text }] }],
});
// Texts a naive reader would trip on: braces, brackets, commas, quotes and backslashes inside strings.
const files = [
  file('a {b}.ts', 'const x = { "y": [1, 2] };'),
  file('c,d.ts', 'say "\\"hi\\""'),
  file('e].ts', '} , {'),
  file('f.ts', '\\'),
];
const answer: GitDiff = { scope: 'uncommitted', base: 'abc', head: 'worktree', files, truncated: false };

describe('the page reads a diff as its text arrives (DiffTextReader)', () => {
  it('files first, cut anywhere: each file as soon as its object is complete, then the whole answer', () => {
    const { files: all, ...rest } = answer;
    const text = JSON.stringify({ files: all, ...rest });
    for (let cut = 1; cut < text.length; cut += 7) {
      const reader = new DiffTextReader();
      const seen = [...reader.push(text.slice(0, cut)), ...reader.push(text.slice(cut))];
      expect(seen, `cut at ${cut}`).to.deep.equal(files);
      expect(reader.end(), `cut at ${cut}`).to.deep.equal(answer);
    }
    const byByte = new DiffTextReader();
    const counts = [...text].map((char) => byByte.push(char).length);
    expect(counts.filter((count) => count > 0)).to.have.length(files.length); // one at a time, as each closed
    expect(byByte.end()).to.deep.equal(answer);
  });

  it('at most `max` files a push: the rest wait for the next, so a first screen is drawn before a whole answer is read', () => {
    const { files: all, ...rest } = answer;
    const reader = new DiffTextReader();
    expect(reader.push(JSON.stringify({ files: all, ...rest }), 2)).to.deep.equal(files.slice(0, 2));
    expect(reader.push('')).to.deep.equal(files.slice(2));
    expect(reader.end()).to.deep.equal(answer);
  });

  it('an answer written whole (its keys in another order) is read at its end', () => {
    const reader = new DiffTextReader();
    expect(reader.push(JSON.stringify(answer))).to.deep.equal([]);
    expect(reader.end()).to.deep.equal(answer);
  });

  it('no files at all', () => {
    const reader = new DiffTextReader();
    reader.push(JSON.stringify({ files: [], scope: 'turn', base: 'a', head: 'b', truncated: false }));
    expect(reader.end()).to.deep.equal({ scope: 'turn', base: 'a', head: 'b', truncated: false, files: [] });
  });
});
