import { expect } from 'chai';
import fc from 'fast-check';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { DataDirLockedError, LOCK_FILE_NAME } from '../../src/store/dataDirLock';
import type { NewThreadEvent } from '../../src/store/eventStore';
import { LEGACY_EVENTS_FILE_NAME, openNedbEventStore } from '../../src/store/nedb/nedbEventStore';
import { INDEX_FILE_NAME } from '../../src/store/nedb/segments/segmentLayout';
import { makeTempDir } from '../helpers/temp/dir';

const event = (threadId: string, data: Record<string, unknown> = {}): NewThreadEvent =>
  ({
    threadId,
    type: 'item/agentMessage/delta',
    turnId: 't1',
    scope: { kind: 'turn', turnId: 't1' },
    data: { providerThreadId: threadId, ...data },
  }) as NewThreadEvent; // only seqs and order matter here, not what the row says

/** A line as the store wrote rows before they became one text field (`data` and `scope` as JSON text). */
const earlierLine = (threadId: string, seq: number, storedThreadId = threadId) =>
  JSON.stringify({
    _id: JSON.stringify([threadId, seq]),
    id: `row-${seq}`,
    threadId: storedThreadId,
    seq,
    type: 'item/agentMessage/delta',
    turnId: 't1',
    scope: JSON.stringify({ kind: 'turn', turnId: 't1' }),
    data: JSON.stringify({ providerThreadId: threadId, delta: `w${seq}`, rawEvent: { $schema: 'x' } }),
    createdAt: '2026-01-01T00:00:00.000Z',
  });

describe('openNedbEventStore', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  beforeEach(async () => (temp = await makeTempDir()));
  afterEach(() => temp.remove());

  it('stores rows with seq 1, 2, 3… per thread and reads them back in seq order after a cursor', async () => {
    const store = await openNedbEventStore({ dataDir: temp.dir });
    const appended = await store.append([event('A'), event('B'), event('A', { delta: 'x' })]);
    expect(appended.map((row) => [row.threadId, row.seq])).to.deep.equal([
      ['A', 1],
      ['B', 1],
      ['A', 2],
    ]);
    expect((await store.list('A')).map((row) => row.seq)).to.deep.equal([1, 2]);
    expect((await store.list('A', { afterSeq: 1 })).map((row) => row.data)).to.deep.equal([{ providerThreadId: 'A', delta: 'x' }]);
    expect(await store.list('A', { limit: 1 })).to.have.lengthOf(1);
    expect(await store.lastSeq('A')).to.equal(2);
    expect(await store.lastSeq('nobody')).to.equal(0);
    await store.close();
  });

  it('reads back every row exactly as append returned it, whatever its turn and scope', async () => {
    const store = await openNedbEventStore({ dataDir: temp.dir });
    const appended = await store.append([
      event('A'),
      { ...event('A'), turnId: null, scope: { kind: 'thread' } },
      { ...event('A'), turnId: 't2', scope: { kind: 'thread' } },
      { ...event('A'), turnId: null, scope: { kind: 'turn', turnId: 't3' } },
      { ...event('A'), turnId: 't4', scope: { kind: 'turn', turnId: 't5' } },
      { ...event('A', { nested: { list: [1, 'two', null], quote: 'say "hi"\n' } }), type: 'provider/unhandled' } as NewThreadEvent,
    ]);
    expect(await store.list('A')).to.deep.equal(appended);
    expect(await store.list('A', { afterSeq: 2, limit: 3 })).to.deep.equal(appended.slice(2, 5));
    await store.close();
  });

  it('keeps SDK payload keys nedb would reject ($-prefixed, dotted) unchanged', async () => {
    const store = await openNedbEventStore({ dataDir: temp.dir });
    const rawEvent = { $schema: 'x', 'a.b': { $ref: '#' } };
    await store.append([event('A', { rawEvent })]);
    expect((await store.list('A'))[0]!.data['rawEvent']).to.deep.equal(rawEvent);
    await store.close();
  });

  it('continues seq after a reopen of the same data dir', async () => {
    const first = await openNedbEventStore({ dataDir: temp.dir });
    await first.append([event('A'), event('A')]);
    await first.close();
    const second = await openNedbEventStore({ dataDir: temp.dir });
    expect((await second.append([event('A')])).map((row) => row.seq)).to.deep.equal([3]);
    await second.close();
  });

  it('continues each thread its own seq when one append after a reopen holds many threads it has not seen yet', async () => {
    const first = await openNedbEventStore({ dataDir: temp.dir });
    await first.append([event('A'), event('B'), event('A'), event('C'), event('A'), event('B')]);
    await first.close();
    const second = await openNedbEventStore({ dataDir: temp.dir });
    const appended = await second.append([event('B'), event('new'), event('A'), event('C'), event('B'), event('new')]);
    expect(appended.map((row) => `${row.threadId}${row.seq}`)).to.deep.equal(['B3', 'new1', 'A4', 'C2', 'B4', 'new2']);
    for (const threadId of ['A', 'B', 'C', 'new']) {
      const seqs = (await second.list(threadId)).map((row) => row.seq);
      expect(seqs, threadId).to.deep.equal(Array.from({ length: seqs.length }, (_, i) => i + 1));
    }
    await second.close();
  });

  it('refuses a second open of a data dir in use, with a clear error, and allows it after close', async () => {
    const first = await openNedbEventStore({ dataDir: temp.dir });
    const second = await openNedbEventStore({ dataDir: temp.dir }).catch((error: unknown) => error);
    expect(second).to.be.instanceOf(DataDirLockedError);
    expect((second as Error).message)
      .to.contain(temp.dir)
      .and.contain(String(process.pid));
    await first.close();
    const third = await openNedbEventStore({ dataDir: temp.dir });
    await third.close();
  });

  it('takes over a lock file left by a process that is gone', async () => {
    await fs.writeFile(path.join(temp.dir, LOCK_FILE_NAME), '999999999');
    const store = await openNedbEventStore({ dataDir: temp.dir });
    expect(await fs.readFile(path.join(temp.dir, LOCK_FILE_NAME), 'utf8')).to.match(new RegExp(`^${process.pid} `));
    await store.close();
  });

  it('starts despite a torn last line (a crash mid-append) and keeps every complete row', async () => {
    const first = await openNedbEventStore({ dataDir: temp.dir });
    await first.append([event('A'), event('A')]);
    await first.close();
    await fs.appendFile(first.threadFilePath('A'), '{"_id":"000000000003","threadId":"A","se');
    const reopened = await openNedbEventStore({ dataDir: temp.dir });
    expect((await reopened.append([event('A')]))[0]!.seq).to.equal(3);
    expect((await reopened.list('A')).map((row) => row.seq)).to.deep.equal([1, 2, 3]);
    await reopened.close();
  });

  it('continues after a row whose line break was cut off, without gluing the next row onto it', async () => {
    const first = await openNedbEventStore({ dataDir: temp.dir });
    await first.append([event('A'), event('A')]);
    await first.close();
    const file = first.threadFilePath('A');
    await fs.writeFile(file, (await fs.readFile(file, 'utf8')).replace(/\n$/, ''));
    const reopened = await openNedbEventStore({ dataDir: temp.dir });
    expect((await reopened.append([event('A')]))[0]!.seq).to.equal(3);
    expect((await reopened.list('A')).map((row) => row.seq)).to.deep.equal([1, 2, 3]);
    await reopened.close();
  });

  it('never trusts a stale index above the file: a thread appended to after the index was saved continues from its file', async () => {
    const first = await openNedbEventStore({ dataDir: temp.dir });
    await first.append([event('A'), event('B')]);
    await first.close();
    const staleIndex = await fs.readFile(path.join(first.eventsDir, INDEX_FILE_NAME));
    const second = await openNedbEventStore({ dataDir: temp.dir });
    await second.append([event('A'), event('A'), event('B')]);
    await second.close();
    await fs.writeFile(path.join(first.eventsDir, INDEX_FILE_NAME), staleIndex); // as if killed before the index was saved
    const third = await openNedbEventStore({ dataDir: temp.dir });
    expect((await third.append([event('A'), event('B')])).map((row) => `${row.threadId}${row.seq}`)).to.deep.equal(['A4', 'B3']);
    await fs.writeFile(path.join(first.eventsDir, INDEX_FILE_NAME), '{"version":1,"threads":{"A":[99,'); // damaged
    await third.close();
    await fs.writeFile(path.join(first.eventsDir, INDEX_FILE_NAME), '{"version":1,"threads":{"A":[99,'); // damaged
    const fourth = await openNedbEventStore({ dataDir: temp.dir });
    expect(await fourth.lastSeq('A')).to.equal(4);
    await fourth.close();
  });

  it('reads any page of a long thread by cursor: exactly the rows after it, up to the limit, ending at the last row', async () => {
    const store = await openNedbEventStore({ dataDir: temp.dir });
    await store.append(Array.from({ length: 250 }, (_, i) => event(i % 5 === 0 ? 'B' : 'A', { delta: `w${i}` })));
    const all = await store.list('A');
    expect(all.map((row) => row.seq)).to.deep.equal(Array.from({ length: 200 }, (_, i) => i + 1));
    for (const [afterSeq, limit] of [
      [0, 1],
      [0, 100],
      [37, 50],
      [150, 100],
      [199, 100],
      [200, 100],
      [500, 10],
    ] as const) {
      expect(await store.list('A', { afterSeq, limit }), `afterSeq ${afterSeq} limit ${limit}`).to.deep.equal(
        all.slice(afterSeq, afterSeq + limit),
      );
    }
    expect((await store.list('B', { afterSeq: 10, limit: 1000 })).map((row) => row.seq)).to.deep.equal(
      Array.from({ length: 40 }, (_, i) => i + 11),
    );
    expect(await store.list('nobody', { limit: 10 })).to.deep.equal([]);
    await store.close();
  });

  it('reads across a gap left by a damaged line skipped on load, instead of stopping at it', async () => {
    const first = await openNedbEventStore({ dataDir: temp.dir });
    await first.append(Array.from({ length: 30 }, () => event('A')));
    await first.close();
    const file = first.threadFilePath('A');
    const lines = (await fs.readFile(file, 'utf8')).split('\n');
    const corruptAt = lines.findIndex((line) => line.includes('"seq":3,'));
    lines[corruptAt] = '{"this line": "was damaged on disk"';
    await fs.writeFile(file, lines.join('\n'));
    const store = await openNedbEventStore({ dataDir: temp.dir });
    expect((await store.list('A', { afterSeq: 0, limit: 5 })).map((row) => row.seq)).to.deep.equal([1, 2, 4, 5, 6]);
    expect((await store.list('A', { afterSeq: 2, limit: 1 })).map((row) => row.seq)).to.deep.equal([4]);
    expect((await store.list('A', { afterSeq: 28, limit: 5 })).map((row) => row.seq)).to.deep.equal([29, 30]);
    await store.close();
  });

  it('migrates a data dir written with the earlier row shape (data and scope as JSON text) and continues its seq', async () => {
    await fs.writeFile(path.join(temp.dir, LEGACY_EVENTS_FILE_NAME), `${[1, 2, 3].map((seq) => earlierLine('A', seq)).join('\n')}\n`);
    const store = await openNedbEventStore({ dataDir: temp.dir });
    expect(await store.list('A', { afterSeq: 1, limit: 1 })).to.deep.equal([
      {
        id: 'row-2',
        threadId: 'A',
        seq: 2,
        type: 'item/agentMessage/delta',
        turnId: 't1',
        scope: { kind: 'turn', turnId: 't1' },
        data: { providerThreadId: 'A', delta: 'w2', rawEvent: { $schema: 'x' } },
        createdAt: '2026-01-01T00:00:00.000Z',
      },
    ]);
    expect((await store.append([event('A')])).map((row) => row.seq)).to.deep.equal([4]);
    expect((await store.list('A')).map((row) => row.seq)).to.deep.equal([1, 2, 3, 4]);
    await store.close();
  });

  it('migrates a row to the thread its threadId field names, even when its old _id named another', async () => {
    const lines = [earlierLine('A "q"', 1), earlierLine('A "q"', 2), earlierLine('A "q"', 3, 'damaged')];
    await fs.writeFile(path.join(temp.dir, LEGACY_EVENTS_FILE_NAME), `${lines.join('\n')}\n`);
    const store = await openNedbEventStore({ dataDir: temp.dir });
    expect(await store.lastSeq('A "q"')).to.equal(2);
    expect((await store.append([event('B'), event('A "q"')])).map((row) => row.seq)).to.deep.equal([1, 3]);
    expect((await store.list('A "q"')).map((row) => row.seq)).to.deep.equal([1, 2, 3]);
    expect((await store.list('damaged')).map((row) => row.seq)).to.deep.equal([3]);
    await store.close();
  });

  it('never lets a reader see a row before its append is acked (rows reach the file before their fsync)', async () => {
    const store = await openNedbEventStore({ dataDir: temp.dir, fsync: 'always' });
    const ackedSeqs = new Set<number>();
    const appends = Array.from({ length: 40 }, (_, i) =>
      store.append([event('t-read', { delta: `d${i}` })]).then((rows) => rows.forEach((row) => ackedSeqs.add(row.seq))),
    );
    const seenEarly: number[] = [];
    let done = false;
    const all = Promise.all(appends).then(() => (done = true));
    while (!done) {
      // Both read paths: the thread's file (first pages of a thread not open) and the open thread in memory.
      for (const rows of [await store.list('t-read', { limit: 100 }), await store.list('t-read')]) {
        seenEarly.push(...rows.filter((row) => !ackedSeqs.has(row.seq)).map((row) => row.seq));
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    await all;
    expect(seenEarly, 'seqs read before their ack').to.deep.equal([]);
    expect((await store.list('t-read')).map((row) => row.seq)).to.deep.equal(Array.from({ length: 40 }, (_, i) => i + 1));
    await store.close();
  });

  it('property: concurrent appends for many threads give each thread seqs exactly 1..n', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.constantFrom('A', 'B', 'C', 'D'), { minLength: 1, maxLength: 5 }), { maxLength: 25 }),
        async (batches) => {
          const { dir, remove } = await makeTempDir();
          const store = await openNedbEventStore({ dataDir: dir });
          try {
            // Not awaited one by one: every append is in flight at once.
            await Promise.all(batches.map((threads) => store.append(threads.map((threadId) => event(threadId)))));
            for (const threadId of ['A', 'B', 'C', 'D']) {
              const seqs = (await store.list(threadId)).map((row) => row.seq);
              const expected = batches
                .flat()
                .filter((t) => t === threadId)
                .map((_, i) => i + 1);
              expect(seqs).to.deep.equal(expected);
            }
          } finally {
            await store.close();
            await remove();
          }
        },
      ),
      { numRuns: 20 },
    );
  });
});
