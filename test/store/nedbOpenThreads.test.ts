import { expect } from 'chai';
import type { NewThreadEvent } from '../../src/store/eventStore';
import { openNedbEventStore } from '../../src/store/nedb/nedbEventStore';
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

describe('nedb event store: only threads being read are in memory', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  beforeEach(async () => {
    temp = await makeTempDir();
    const store = await openNedbEventStore({ dataDir: temp.dir });
    for (let round = 0; round < 5; round++) await store.append(threadIds.map((threadId) => event(threadId, `r${round}`)));
    await store.close();
  });
  afterEach(() => temp.remove());

  it('holds no thread after start, one after reading one, and none for appends to threads nobody reads', async () => {
    const store = await openNedbEventStore({ dataDir: temp.dir });
    expect(store.stats()).to.deep.include({ openThreads: 0, openBytes: 0, knownThreads: 40 });
    expect((await store.append(threadIds.map((threadId) => event(threadId)))).map((row) => row.seq)).to.deep.equal(threadIds.map(() => 6));
    expect(store.stats().openThreads).to.equal(0);
    expect((await store.list('thr_7')).map((row) => row.seq)).to.deep.equal([1, 2, 3, 4, 5, 6]);
    expect(store.stats().openThreads).to.equal(1);
    expect(await store.lastSeq('thr_8')).to.equal(6);
    expect(store.stats().openThreads).to.equal(1);
    await store.close();
  });

  it('closes the least recently read threads beyond the thread budget, and reads them back whole when asked again', async () => {
    const store = await openNedbEventStore({ dataDir: temp.dir, openThreads: 3 });
    for (const threadId of threadIds.slice(0, 10)) await store.list(threadId);
    expect(store.stats().openThreads).to.equal(3);
    await store.append([event('thr_0', 'after close')]);
    const again = await store.list('thr_0');
    expect(again.map((row) => [row.seq, row.data['delta']])).to.deep.equal([
      [1, 'r0'],
      [2, 'r1'],
      [3, 'r2'],
      [4, 'r3'],
      [5, 'r4'],
      [6, 'after close'],
    ]);
    expect(store.stats().openThreads).to.equal(3);
    await store.close();
  });

  it('keeps the bytes of open threads under the memory budget, but always the thread being read', async () => {
    const store = await openNedbEventStore({ dataDir: temp.dir, openMb: 1 / 1024 }); // 1 KiB: about two threads' files
    for (const threadId of threadIds) await store.list(threadId);
    const { openThreads, openBytes } = store.stats();
    expect(openThreads).to.be.at.least(1);
    expect(openThreads === 1 || openBytes <= 1024, `${openThreads} threads, ${openBytes} bytes`).to.equal(true);
    await store.close();
  });

  it('reads a thread appended to while it is open exactly as a fresh start would', async () => {
    const store = await openNedbEventStore({ dataDir: temp.dir });
    await store.list('thr_1');
    await Promise.all([store.append([event('thr_1', 'a'), event('thr_2', 'b')]), store.list('thr_2'), store.append([event('thr_2', 'c')])]);
    const before = [await store.list('thr_1'), await store.list('thr_2')];
    await store.close();
    const reopened = await openNedbEventStore({ dataDir: temp.dir });
    expect([await reopened.list('thr_1'), await reopened.list('thr_2')]).to.deep.equal(before);
    expect(before[1]!.map((row) => row.seq)).to.deep.equal([1, 2, 3, 4, 5, 6, 7]);
    await reopened.close();
  });

  it('reads a page anywhere in a long thread from its file, holding none of it in memory, the same rows as the opened thread (issue 31)', async () => {
    const store = await openNedbEventStore({ dataDir: temp.dir });
    const long = 'thr_long';
    for (let batch = 0; batch < 10; batch++)
      await store.append(Array.from({ length: 100 }, (_, i) => event(long, `row ${batch * 100 + i + 1} ✓ "quoted"`)));
    await store.close();

    const reopened = await openNedbEventStore({ dataDir: temp.dir });
    // Cursors at the start, across line marks (every 128 lines), near and past the end, read in no order.
    const cursors = [0, 999, 500, 127, 128, 129, 255, 256, 990, 1, 640, 1000];
    const pages = [];
    for (const afterSeq of cursors) pages.push(await reopened.list(long, { afterSeq, limit: 20 }));
    expect(reopened.stats().openThreads).to.equal(0);
    for (const [i, afterSeq] of cursors.entries()) {
      const expected = Array.from({ length: Math.max(0, Math.min(20, 1000 - afterSeq)) }, (_, k) => afterSeq + k + 1);
      expect(
        pages[i]!.map((row) => row.seq),
        `after ${afterSeq}`,
      ).to.deep.equal(expected);
      expect(pages[i]!.map((row) => row.data['delta'])).to.deep.equal(expected.map((seq) => `row ${seq} ✓ "quoted"`));
    }
    // Rows appended after the reads are read the same way, and the whole thread read opened agrees.
    await reopened.append([event(long, 'late')]);
    expect((await reopened.list(long, { afterSeq: 995, limit: 10 })).map((row) => row.seq)).to.deep.equal([996, 997, 998, 999, 1000, 1001]);
    const whole = await reopened.list(long);
    expect(reopened.stats().openThreads).to.equal(1);
    expect(whole.slice(127, 147)).to.deep.equal(pages[3]);
    await reopened.close();
  });
});
