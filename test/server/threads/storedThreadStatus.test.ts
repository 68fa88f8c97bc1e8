import { expect } from 'chai';
import { from, lastValueFrom } from 'rxjs';
import type { EventStore, NewThreadEvent } from '../../../src/store/eventStore';
import { openNedbEventStore } from '../../../src/store/nedb/nedbEventStore';
import { storedThreadStatus } from '../../../src/server/threads/storedThreadStatus';
import { makeTempDir } from '../../helpers/temp/dir';

const row = (type: string, turnId: string | null = 't1'): NewThreadEvent =>
  ({
    threadId: 'thr_a',
    type,
    turnId,
    scope: turnId ? { kind: 'turn', turnId } : { kind: 'thread' },
    data: { providerThreadId: 'thr_a' },
  }) as NewThreadEvent; // only seqs and order matter here, not what the row says
const deltas = (count: number, turnId = 't1') => Array.from({ length: count }, () => row('item/agentMessage/delta', turnId));

describe('storedThreadStatus (a thread whose host is away)', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let store: EventStore;
  const append = (events: NewThreadEvent[]) => lastValueFrom(from(store.append(events)));
  beforeEach(async () => {
    temp = await makeTempDir('ats-status-');
    store = await openNedbEventStore({ dataDir: temp.dir });
  });
  afterEach(async () => {
    await store.close();
    await temp.remove();
  });

  it('is idle for a thread without rows', async () => {
    expect(await storedThreadStatus(store, 'thr_a')).to.equal('idle');
  });

  it('is active while the last turn has no turn/completed, however long the turn has run', async () => {
    await append([row('turn/started'), ...deltas(5_000)]);
    expect(await storedThreadStatus(store, 'thr_a')).to.equal('active');
  });

  it('is idle after turn/completed, even with thread-scoped rows after it', async () => {
    await append([row('turn/started'), ...deltas(100), row('turn/completed'), row('provider/unhandled', null)]);
    expect(await storedThreadStatus(store, 'thr_a')).to.equal('idle');
  });

  it('is active again once the next turn starts', async () => {
    await append([row('turn/started'), row('turn/completed'), row('turn/started', 't2'), ...deltas(10, 't2')]);
    expect(await storedThreadStatus(store, 'thr_a')).to.equal('active');
  });
});
