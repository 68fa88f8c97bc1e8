import { expect } from 'chai';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { LOCK_FILE_NAME } from '../../src/store/dataDirLock';
import type { NewThreadEvent } from '../../src/store/eventStore';
import { openNedbEventStore } from '../../src/store/nedb/nedbEventStore';
import { journalFilesIn } from '../../src/store/nedb/segments/journal';
import { makeTempDir } from '../helpers/temp/dir';

const event = (threadId: string, delta: string): NewThreadEvent =>
  ({
    threadId,
    type: 'item/agentMessage/delta',
    turnId: 't1',
    scope: { kind: 'turn', turnId: 't1' },
    data: { providerThreadId: threadId, itemId: 'i', delta },
  }) as NewThreadEvent;

describe('nedb event store: the journal keeps acked rows a power cut took from thread files', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  beforeEach(async () => (temp = await makeTempDir()));
  afterEach(() => temp.remove());

  it('puts back rows an unsynced thread file lost, once each, and drops the journal after a clean close', async () => {
    const live = path.join(temp.dir, 'live');
    const store = await openNedbEventStore({ dataDir: live, checkpointMs: 3_600_000 });
    const acked = await store.append([event('A', 'a1'), event('B', 'b1'), event('A', 'a2'), event('B', 'b2'), event('B', 'b3')]);
    // What the disk could hold after a power cut: the journal (synced before the ack), thread files cut short.
    const crashed = path.join(temp.dir, 'crashed');
    await fs.cp(live, crashed, { recursive: true });
    await fs.rm(path.join(crashed, LOCK_FILE_NAME), { force: true });
    const relative = (file: string) => path.join(crashed, path.relative(live, file));
    // Thread files as a power cut could leave them (or as they are while a checkpoint has not written them
    // yet): A's missing, B's with b1 and half of b2.
    const journalLines = (await fs.readFile((await journalFilesIn(relative(store.eventsDir)))[0]!, 'utf8')).split('\n');
    const linesB = journalLines.filter((line) => line.includes('"threadId":"B"'));
    await fs.rm(relative(store.threadFilePath('A')), { force: true });
    await fs.mkdir(path.dirname(relative(store.threadFilePath('B'))), { recursive: true });
    await fs.writeFile(relative(store.threadFilePath('B')), `${linesB[0]}\n${linesB[1]!.slice(0, 30)}`);
    await store.close();
    expect(await journalFilesIn(store.eventsDir)).to.deep.equal([]);

    const reopened = await openNedbEventStore({ dataDir: crashed });
    expect(reopened.replay).to.deep.equal({ journals: 1, restoredRows: 4 });
    expect([...(await reopened.list('A')), ...(await reopened.list('B'))]).to.deep.equal(
      acked.filter((row) => row.threadId === 'A').concat(acked.filter((row) => row.threadId === 'B')),
    );
    expect((await reopened.append([event('B', 'b4')]))[0]!.seq).to.equal(4);
    await reopened.close();
    expect(await journalFilesIn(reopened.eventsDir)).to.deep.equal([]);
  });

  it('writes no journal with ATS_FSYNC=off', async () => {
    const store = await openNedbEventStore({ dataDir: temp.dir, fsync: 'off', checkpointMs: 3_600_000 });
    await store.append([event('A', 'a1')]);
    expect(await journalFilesIn(store.eventsDir)).to.deep.equal([]);
    expect((await store.list('A')).map((row) => row.data['delta'])).to.deep.equal(['a1']);
    await store.close();
  });
});
