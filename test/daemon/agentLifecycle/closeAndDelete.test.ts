import { expect } from 'chai';
import { createMemoryEventStore } from '../../../src/store/memoryEventStore';
import type { EventStore } from '../../../src/store/eventStore';
import { agentStart } from '../../helpers/server/frames';
import { askingProvider } from '../../helpers/fakes/askingProvider';
import { fakeProvider } from '../../helpers/fakes/provider';
import { eventually } from '../../helpers/server/eventually';
import { daemonWith, watched, type TestDaemon } from './daemonWith';

const rowsOf = async (store: EventStore, threadId: string) =>
  (await store.list(threadId)).map((row) => [row.seq, row.type, row.data.status]);

describe('host daemon: thread.close_agent and thread.delete (issue 28)', () => {
  let store: EventStore;
  let t: TestDaemon;
  let provider: ReturnType<typeof fakeProvider>;
  let lifecycle: ReturnType<typeof watched>['lifecycle'];
  const open = (threadId: string) => t.call('thread.open', { threadId, cwd: '/tmp', provider: 'fake', model: 'm' });
  const hang = async (threadId: string) => {
    await open(threadId);
    await t.call('thread.prompt', { threadId, prompt: 'hang' });
    await eventually(async () => ((await t.call('thread.status', { threadId })).status === 'active' ? true : undefined), 'the open turn');
  };

  beforeEach(() => {
    store = createMemoryEventStore();
    provider = fakeProvider('fake');
    const wrapped = watched(provider);
    lifecycle = wrapped.lifecycle;
    t = daemonWith(store, [wrapped], 60_000);
  });
  afterEach(() => t.daemon.close());

  it('close_agent stops an open turn (its interrupted turn/completed stored and answered), closes the agent, and the thread prompts again', async () => {
    await hang('thr_c');
    const { seqs } = await t.call('thread.close_agent', { threadId: 'thr_c' });
    const rows = await rowsOf(store, 'thr_c');
    const completed = rows.find(([, type]) => type === 'turn/completed')!;
    expect(completed[2]).to.equal('interrupted');
    expect(seqs).to.include(completed[0]);
    expect(provider.disposed).to.deep.equal(['thr_c']);
    expect((await t.call('thread.status', { threadId: 'thr_c' })).agent).to.equal('stopped');
    expect(await t.call('thread.close_agent', { threadId: 'thr_c' })).to.deep.equal({ seqs: [] });
    await t.call('thread.prompt', { threadId: 'thr_c', prompt: 'again' });
    expect(provider.opened).to.have.length(2);
  });

  it('close_agent cancels an open question before the agent goes', async () => {
    const asking = askingProvider();
    const other = daemonWith(createMemoryEventStore(), [asking], 60_000);
    try {
      await other.call('thread.open', { threadId: 'thr_q', cwd: '/work/p', provider: 'asking', model: 'm', permissionMode: 'ask' });
      await other.call('thread.prompt', { threadId: 'thr_q', prompt: 'make' });
      await eventually(async () =>
        (await other.call('thread.status', { threadId: 'thr_q' })).pendingApprovalIds.length ? true : undefined,
      );
      await other.call('thread.close_agent', { threadId: 'thr_q' });
      expect(asking.decisions.map((d) => d.decision.outcome)).to.deep.equal(['cancelled']);
      expect(await other.call('thread.status', { threadId: 'thr_q' })).to.deep.include({
        status: 'idle',
        agent: 'stopped',
        pendingApprovalIds: [],
      });
    } finally {
      await other.daemon.close();
    }
  });

  it('delete stops the open turn first, closes the agent, removes its provider session, forgets the thread; twice is fine', async () => {
    await hang('thr_d');
    const { seqs } = await t.call('thread.delete', { threadId: 'thr_d' });
    const completed = (await rowsOf(store, 'thr_d')).find(([, type]) => type === 'turn/completed')!;
    expect(completed[2]).to.equal('interrupted');
    expect(seqs).to.include(completed[0]);
    expect(provider.disposed).to.deep.equal(['thr_d']);
    expect(lifecycle.deleted).to.deep.equal([['session-thr_d', '/tmp/ats-unused/providers/fake']]);
    const notOpen = await t.call('thread.prompt', { threadId: 'thr_d', prompt: 'hi' }).catch((e) => e);
    expect(notOpen.data).to.deep.equal({ hostCode: 'thread_not_open' });
    expect(await t.call('thread.delete', { threadId: 'thr_d' })).to.deep.equal({ seqs: [] });
    expect(await t.call('thread.delete', { threadId: 'thr_never' })).to.deep.equal({ seqs: [] });
  });

  it('delete of a thread this daemon never opened (after a restart) removes the session its rows name', async () => {
    await t.call('thread.ingest', { frame: agentStart('thr_old'), providerThreadId: 'session-old' });
    const wrapped = watched(fakeProvider('fake'));
    const fresh = daemonWith(store, [wrapped], 60_000);
    try {
      await fresh.call('thread.delete', { threadId: 'thr_old' });
      expect(wrapped.lifecycle.deleted).to.deep.equal([['session-old', '/tmp/ats-unused/providers/fake']]);
    } finally {
      await fresh.daemon.close();
    }
  });

  it('delete naming a provider this host no longer offers asks no other provider, and says the session stays', async () => {
    await t.call('thread.ingest', { frame: agentStart('thr_gone'), providerThreadId: 'session-gone' });
    await t.call('thread.delete', { threadId: 'thr_gone', provider: 'claude', providerThreadId: 'session-gone' });
    expect(lifecycle.deleted).to.deep.equal([]);
    expect(t.logs.join('\n')).to.match(/offers no claude agent now, so its session stays/);
  });
});
