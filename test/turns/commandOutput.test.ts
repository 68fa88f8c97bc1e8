import { expect } from 'chai';
import { nextOutput, outputSnapshotOf, type OutputProgress } from '../../src/turns/commandOutput';

const after = (output: string, outputBytes = Buffer.byteLength(output)): OutputProgress => ({ output, outputBytes });

describe('command output: pi snapshots → deltas', () => {
  const cases: Array<{ name: string; previous: OutputProgress; text: string; totalBytes?: number; delta: string; outputBytes: number }> = [
    { name: 'the first snapshot is all new', previous: after(''), text: 'a\n', delta: 'a\n', outputBytes: 2 },
    { name: 'a snapshot that extends the last one adds its suffix', previous: after('a\n'), text: 'a\nb\n', delta: 'b\n', outputBytes: 4 },
    { name: 'an unchanged snapshot adds nothing', previous: after('a\n'), text: 'a\n', delta: '', outputBytes: 2 },
    {
      name: 'after pi truncated the head, totalBytes says which bytes are new',
      previous: after('1\n2\n'),
      text: '2\n3\n',
      totalBytes: 6,
      delta: '3\n',
      outputBytes: 6,
    },
    {
      name: 'repetitive output that looks unchanged after truncation still yields the new line',
      previous: after('a\na\n', 6),
      text: 'a\na\n',
      totalBytes: 8,
      delta: 'a\n',
      outputBytes: 8,
    },
    {
      name: 'more new bytes than pi keeps: the whole snapshot (what scrolled out is never seen)',
      previous: after('x', 1),
      text: 'yz',
      totalBytes: 100,
      delta: 'yz',
      outputBytes: 100,
    },
    {
      name: 'new bytes are counted in UTF-8, as pi counts them',
      previous: after('é\n', 3),
      text: '\nö€',
      totalBytes: 8,
      delta: 'ö€',
      outputBytes: 8,
    },
    { name: 'a snapshot that neither extends nor counts is sent whole', previous: after('abc'), text: 'xyz', delta: 'xyz', outputBytes: 6 },
  ];
  for (const { name, previous, text, totalBytes, delta, outputBytes } of cases) {
    it(name, () => {
      expect(nextOutput(previous, { text, totalBytes })).to.deep.equal({ delta, output: text, outputBytes });
    });
  }

  it("reads the text and pi's byte count from a bash partialResult, and nothing from one without content", () => {
    expect(outputSnapshotOf({ content: [{ type: 'text', text: 'hi' }], details: { truncation: { totalBytes: 70000 } } })).to.deep.equal({
      text: 'hi',
      totalBytes: 70000,
    });
    expect(outputSnapshotOf({ content: [{ type: 'text', text: 'hi' }], details: {} })).to.deep.equal({ text: 'hi', totalBytes: undefined });
    expect(outputSnapshotOf({ content: [] })).to.deep.equal({ text: '', totalBytes: undefined });
    expect(outputSnapshotOf({ details: undefined })).to.equal(undefined);
    expect(outputSnapshotOf('nope')).to.equal(undefined);
  });
});
