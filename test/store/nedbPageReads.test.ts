import { expect } from 'chai';
import { promises as fs } from 'node:fs';
import type { NewThreadEvent } from '../../src/store/eventStore';
import { openNedbEventStore } from '../../src/store/nedb/nedbEventStore';
import { BYTES_PER_MARK, LineIndex } from '../../src/store/nedb/segments/lineIndex';
import { makeTempDir } from '../helpers/temp/dir';

const event = (threadId: string, text = 'x'): NewThreadEvent =>
  ({
    threadId,
    type: 'item/agentMessage/delta',
    turnId: 't1',
    scope: { kind: 'turn', turnId: 't1' },
    data: { providerThreadId: threadId, itemId: 'i', delta: text },
  }) as NewThreadEvent;

const threadIds = Array.from({ length: 40 }, (_, i) => `thr_${i}`);
const LONG = 'thr_long';
const LONG_ROWS = 1000;
const textOf = (seq: number) => `row ${seq} ✓ "quoted"`;
const seqs = (from: number, to: number) => Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);

describe('nedb event store: pages read from the thread file, no thread held in memory (issue 31)', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  beforeEach(async () => {
    temp = await makeTempDir();
    const store = await openNedbEventStore({ dataDir: temp.dir });
    for (let round = 0; round < 5; round++) await store.append(threadIds.map((threadId) => event(threadId, `r${round}`)));
    for (let batch = 0; batch < LONG_ROWS / 100; batch++)
      await store.append(Array.from({ length: 100 }, (_, i) => event(LONG, textOf(batch * 100 + i + 1))));
    await store.close();
  });
  afterEach(() => temp.remove());

  it('knows every thread after start without reading one, and continues them where they end', async () => {
    const store = await openNedbEventStore({ dataDir: temp.dir });
    expect(store.stats()).to.deep.equal({ knownThreads: 41, lineMarks: 0 });
    expect((await store.append(threadIds.map((threadId) => event(threadId)))).map((row) => row.seq)).to.deep.equal(threadIds.map(() => 6));
    expect((await store.list('thr_7')).map((row) => row.seq)).to.deep.equal([1, 2, 3, 4, 5, 6]);
    expect(await store.lastSeq('thr_8')).to.equal(6);
    await store.close();
  });

  it('reads pages of every size anywhere in a long thread, in no order, the same rows as the whole thread', async () => {
    const store = await openNedbEventStore({ dataDir: temp.dir });
    // Cursors at the start, across line marks (every 128 lines), near and past the end; sizes up to an SSE page.
    const reads: Array<[number, number | undefined]> = [
      [0, 20],
      [999, 20],
      [500, 800],
      [127, 1],
      [128, 200],
      [129, 1000],
      [255, 20],
      [0, 1000],
      [990, 800],
      [1, undefined],
      [640, 20],
      [1000, 20],
      [0, undefined],
    ];
    const pages = [];
    for (const [afterSeq, limit] of reads) pages.push(await store.list(LONG, { afterSeq, limit }));
    for (const [i, [afterSeq, limit]] of reads.entries()) {
      const expected = seqs(afterSeq + 1, Math.min(afterSeq + (limit ?? Infinity), LONG_ROWS));
      expect(
        pages[i]!.map((row) => row.seq),
        `after ${afterSeq}, ${limit}`,
      ).to.deep.equal(expected);
      expect(pages[i]!.map((row) => row.data['delta'])).to.deep.equal(expected.map(textOf));
    }
    // Pages as JSON text are exactly the rows serialised.
    const text = await store.listJson(LONG, { afterSeq: 300, limit: 900 });
    expect(text.rows).to.equal(700);
    expect(text.json).to.equal(JSON.stringify(await store.list(LONG, { afterSeq: 300, limit: 900 })));
    // Rows appended after the reads are read the same way, and agree with a fresh start.
    await store.append([event(LONG, 'late')]);
    expect((await store.list(LONG, { afterSeq: 995, limit: 10 })).map((row) => row.seq)).to.deep.equal([996, 997, 998, 999, 1000, 1001]);
    const whole = await store.list(LONG);
    await store.close();
    const reopened = await openNedbEventStore({ dataDir: temp.dir });
    expect(await reopened.list(LONG)).to.deep.equal(whole);
    expect(whole.slice(127, 128)).to.deep.equal(pages[3]);
    await reopened.close();
  });

  it('reads a thread appended to while it is read exactly as a fresh start would', async () => {
    const store = await openNedbEventStore({ dataDir: temp.dir });
    await store.list('thr_1');
    await Promise.all([
      store.append([event('thr_1', 'a'), event('thr_2', 'b')]),
      store.list('thr_2', { afterSeq: 3, limit: 1000 }),
      store.append([event('thr_2', 'c')]),
    ]);
    const before = [await store.list('thr_1'), await store.list('thr_2')];
    await store.close();
    const reopened = await openNedbEventStore({ dataDir: temp.dir });
    expect([await reopened.list('thr_1'), await reopened.list('thr_2')]).to.deep.equal(before);
    expect(before[1]!.map((row) => row.seq)).to.deep.equal([1, 2, 3, 4, 5, 6, 7]);
    await reopened.close();
  });

  it('a damaged line in a thread file: pages around and after it are read as a full load would (the line skipped)', async () => {
    const store = await openNedbEventStore({ dataDir: temp.dir });
    const file = store.threadFilePath(LONG);
    await store.close();
    const lines = (await fs.readFile(file, 'utf8')).split('\n');
    lines[149] = '{"damaged":'; // seq 150
    await fs.writeFile(file, lines.join('\n'));

    const reopened = await openNedbEventStore({ dataDir: temp.dir });
    expect((await reopened.list(LONG, { afterSeq: 100, limit: 10 })).map((row) => row.seq)).to.deep.equal(seqs(101, 110));
    expect((await reopened.list(LONG, { afterSeq: 140, limit: 20 })).map((row) => row.seq)).to.deep.equal([
      ...seqs(141, 149),
      ...seqs(151, 161),
    ]);
    expect((await reopened.list(LONG, { afterSeq: 990, limit: 20 })).map((row) => row.seq)).to.deep.equal(seqs(991, 1000));
    expect((await reopened.list(LONG)).length).to.equal(LONG_ROWS - 1);
    expect((await reopened.append([event(LONG, 'after damage')]))[0]!.seq).to.equal(1001);
    await reopened.close();
  });

  it('long rows: line marks at most BYTES_PER_MARK apart, so a read anywhere skips at most that much of the file', async () => {
    const temp2 = await makeTempDir();
    try {
      const file = `${temp2.dir}/lines`;
      const line = (i: number) => `${String(i).padEnd(16 * 1024, 'x')}\n`;
      await fs.writeFile(file, Array.from({ length: 64 }, (_, i) => line(i)).join(''));
      const lines = new LineIndex();
      expect(await lines.readLines(file, 63, 63)).to.deep.equal([line(63).slice(0, -1)]);
      expect(lines.marks).to.be.at.least((64 * 16 * 1024) / BYTES_PER_MARK);
      expect(await lines.readLines(file, 10, 12)).to.deep.equal([10, 11, 12].map((i) => line(i).slice(0, -1)));
      expect(await lines.readLines(file, 62, 70)).to.deep.equal([62, 63].map((i) => line(i).slice(0, -1)));
    } finally {
      await temp2.remove();
    }
  });
});
