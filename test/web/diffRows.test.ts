import { expect } from 'chai';
import { commentLineOf, diffRows } from '../../src/web/changes/diffRows';
import type { DiffFile } from '../../src/web/changes/types';

const file = (over: Partial<DiffFile>): DiffFile => ({
  path: 'src/a.ts',
  status: 'modified',
  binary: false,
  additions: 0,
  deletions: 0,
  hunks: [],
  ...over,
});

const edited = file({
  additions: 2,
  deletions: 1,
  hunks: [
    {
      oldStart: 10,
      oldLines: 3,
      newStart: 10,
      newLines: 4,
      lines: [
        { kind: 'context', text: 'a' },
        { kind: 'del', text: 'old b' },
        { kind: 'add', text: 'new b' },
        { kind: 'add', text: 'new c' },
        { kind: 'context', text: 'd' },
      ],
    },
  ],
});

/** Issue 38: the diff flattened into fixed-height rows the Changes view renders a screen at a time. */
describe('the Changes view flattens a diff into rows', () => {
  it('unified: a header, the hunk, each line with its old and new numbers', () => {
    const { rows, fileStarts } = diffRows([edited], 'unified');
    expect(fileStarts).to.deep.equal([0]);
    expect(rows.map((row) => (row.kind === 'line' ? [row.line, row.oldLine, row.newLine] : row.kind))).to.deep.equal([
      'file',
      'hunk',
      ['context', 10, 10],
      ['del', 11, undefined],
      ['add', undefined, 11],
      ['add', undefined, 12],
      ['context', 12, 13],
    ]);
  });

  it('split: a deletion beside the addition that replaced it, the extra addition alone on the new side', () => {
    const { rows } = diffRows([edited], 'split');
    const pairs = rows.flatMap((row) => (row.kind === 'pair' ? [[row.old?.line ?? null, row.new?.line ?? null]] : []));
    expect(pairs).to.deep.equal([
      [10, 10],
      [11, 11],
      [null, 12],
      [12, 13],
    ]);
  });

  it('a comment names the new side of a line that has one, the old side of a deleted line, and the side clicked in split', () => {
    const { rows } = diffRows([edited], 'unified');
    expect(commentLineOf(rows[3]!)).to.deep.equal({ line: 11, side: 'old', text: 'old b' });
    expect(commentLineOf(rows[4]!)).to.deep.equal({ line: 11, side: 'new', text: 'new b' });
    expect(commentLineOf(rows[0]!)).to.equal(undefined);
    const split = diffRows([edited], 'split').rows;
    expect(commentLineOf(split[3]!, 'old')).to.deep.equal({ line: 11, side: 'old', text: 'old b' });
    expect(commentLineOf(split[3]!)).to.deep.equal({ line: 11, side: 'new', text: 'new b' });
  });

  it('a file with no hunks says why (binary, too large, renamed) instead of showing nothing; fileStarts finds each file', () => {
    const { rows, fileStarts } = diffRows(
      [file({ path: 'logo.png', binary: true }), file({ path: 'big.json', truncated: true, additions: 9000 }), edited],
      'unified',
    );
    expect(fileStarts).to.deep.equal([0, 2, 4]);
    expect(rows.filter((row) => row.kind === 'note').map((row) => (row as { text: string }).text)).to.deep.equal([
      'Binary file: not shown.',
      'Too large to show here; its counts still hold.',
    ]);
  });

  it('a 50,000-line change is 50,000 rows plus headers, flattened in one pass', () => {
    const lines = Array.from({ length: 50 }, (_, index) => ({ kind: 'add' as const, text: `line ${index}` }));
    const files = Array.from({ length: 1000 }, (_, index) =>
      file({
        path: `f${index}.ts`,
        status: 'added',
        additions: 50,
        hunks: [{ oldStart: 0, oldLines: 0, newStart: 1, newLines: 50, lines }],
      }),
    );
    expect(diffRows(files, 'unified').rows.length).to.equal(1000 * 52);
  });
});
