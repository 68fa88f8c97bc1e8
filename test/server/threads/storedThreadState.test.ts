import { expect } from 'chai';
import { from, lastValueFrom } from 'rxjs';
import type { EventStore, NewThreadEvent } from '../../../src/store/eventStore';
import { openNedbEventStore } from '../../../src/store/nedb/nedbEventStore';
import { storedThreadState } from '../../../src/server/threads/storedThreadStatus';
import { makeTempDir } from '../../helpers/temp/dir';

const row = (type: string, turnId: string | null, data: Record<string, unknown> = {}): NewThreadEvent =>
  ({
    threadId: 'thr_a',
    type,
    turnId,
    scope: turnId ? { kind: 'turn', turnId } : { kind: 'thread' },
    data: { providerThreadId: 'thr_a', ...data },
  }) as NewThreadEvent; // only the types, turns and approval ids matter here
const asked = (approvalId: string, turnId: string | null = 't1') => row('approval/requested', turnId, { approvalId });
const answered = (approvalId: string, turnId: string | null = 't1') => row('approval/resolved', turnId, { approvalId, decidedBy: 'user' });
const deltas = (count: number) => Array.from({ length: count }, () => row('item/agentMessage/delta', 't1'));

describe('storedThreadState (the questions of a thread whose host is away)', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let store: EventStore;
  const append = (events: NewThreadEvent[]) => lastValueFrom(from(store.append(events)));
  beforeEach(async () => {
    temp = await makeTempDir('ats-state-');
    store = await openNedbEventStore({ dataDir: temp.dir });
  });
  afterEach(async () => {
    await store.close();
    await temp.remove();
  });

  it('is idle with nothing pending for a thread without rows', async () => {
    expect(await storedThreadState(store, 'thr_a')).to.deep.equal({ status: 'idle', pendingApprovalIds: [], lastTurnStatus: null });
  });

  it('lists the questions of the open turn that have no answer, in the order they were asked, however long the turn ran', async () => {
    await append([row('turn/started', 't1'), asked('ap1'), ...deltas(200), asked('ap2'), asked('ap3'), answered('ap1'), ...deltas(100)]);
    expect(await storedThreadState(store, 'thr_a')).to.deep.equal({
      status: 'active',
      pendingApprovalIds: ['ap2', 'ap3'],
      lastTurnStatus: null,
    });
  });

  it('lists nothing of a turn that completed, and the thread-scoped questions asked after it', async () => {
    await append([row('turn/started', 't1'), asked('ap1'), row('turn/completed', 't1', { status: 'completed' }), asked('ap9', null)]);
    expect(await storedThreadState(store, 'thr_a')).to.deep.equal({
      status: 'idle',
      pendingApprovalIds: ['ap9'],
      lastTurnStatus: 'completed',
    });
  });

  it('says how the last turn ended: a thread whose last prompt failed is marked failed until the next turn starts (issue 29)', async () => {
    await append([row('turn/started', 't1'), row('turn/completed', 't1', { status: 'failed', error: { message: 'No API key' } })]);
    expect((await storedThreadState(store, 'thr_a')).lastTurnStatus).to.equal('failed');
    await append([row('turn/started', 't2')]);
    expect((await storedThreadState(store, 'thr_a')).lastTurnStatus).to.equal(null);
  });
});
