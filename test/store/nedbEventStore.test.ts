import { expect } from 'chai';
import fc from 'fast-check';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { DataDirLockedError, LOCK_FILE_NAME } from '../../src/store/dataDirLock';
import type { NewThreadEvent } from '../../src/store/eventStore';
import { EVENTS_FILE_NAME, openNedbEventStore } from '../../src/store/nedbEventStore';
import { makeTempDir } from '../helpers/pipelineTempDir';

const event = (threadId: string, data: Record<string, unknown> = {}): NewThreadEvent => ({
  threadId,
  type: 'item/agentMessage/delta',
  turnId: 't1',
  scope: { kind: 'turn', turnId: 't1' },
  data: { providerThreadId: threadId, ...data },
});

describe('openNedbEventStore', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  beforeEach(async () => (temp = await makeTempDir()));
  afterEach(() => temp.remove());

  it('stores rows with seq 1, 2, 3… per thread and reads them back in seq order after a cursor', async () => {
    const store = await openNedbEventStore({ dataDir: temp.dir });
    const appended = await store.append([event('A'), event('B'), event('A', { delta: 'x' })]);
    expect(appended.map((row) => [row.threadId, row.seq])).to.deep.equal([['A', 1], ['B', 1], ['A', 2]]);
    expect((await store.list('A')).map((row) => row.seq)).to.deep.equal([1, 2]);
    expect((await store.list('A', { afterSeq: 1 })).map((row) => row.data)).to.deep.equal([{ providerThreadId: 'A', delta: 'x' }]);
    expect(await store.list('A', { limit: 1 })).to.have.lengthOf(1);
    expect(await store.lastSeq('A')).to.equal(2);
    expect(await store.lastSeq('nobody')).to.equal(0);
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

  it('refuses a second open of a data dir in use, with a clear error, and allows it after close', async () => {
    const first = await openNedbEventStore({ dataDir: temp.dir });
    const second = await openNedbEventStore({ dataDir: temp.dir }).catch((error: unknown) => error);
    expect(second).to.be.instanceOf(DataDirLockedError);
    expect((second as Error).message).to.contain(temp.dir).and.contain(String(process.pid));
    await first.close();
    const third = await openNedbEventStore({ dataDir: temp.dir });
    await third.close();
  });

  it('takes over a lock file left by a process that is gone', async () => {
    await fs.writeFile(path.join(temp.dir, LOCK_FILE_NAME), '999999999');
    const store = await openNedbEventStore({ dataDir: temp.dir });
    expect(await fs.readFile(path.join(temp.dir, LOCK_FILE_NAME), 'utf8')).to.equal(String(process.pid));
    await store.close();
  });

  it('starts despite a torn last line (a crash mid-append) and keeps every complete row', async () => {
    const first = await openNedbEventStore({ dataDir: temp.dir });
    await first.append([event('A'), event('A')]);
    await first.close();
    await fs.appendFile(path.join(temp.dir, EVENTS_FILE_NAME), '{"_id":"[\\"A\\",3]","threadId":"A","se');
    const reopened = await openNedbEventStore({ dataDir: temp.dir });
    expect(reopened.repairedTornTail).to.equal(true);
    expect((await reopened.list('A')).map((row) => row.seq)).to.deep.equal([1, 2]);
    expect((await reopened.append([event('A')]))[0]!.seq).to.equal(3);
    await reopened.close();
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
              const expected = batches.flat().filter((t) => t === threadId).map((_, i) => i + 1);
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
