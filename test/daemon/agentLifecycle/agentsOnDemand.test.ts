import { expect } from 'chai';
import { createMemoryEventStore } from '../../../src/store/memoryEventStore';
import type { EventStore } from '../../../src/store/eventStore';
import { askingProvider } from '../../helpers/fakes/askingProvider';
import { fakeProvider } from '../../helpers/fakes/provider';
import { eventually } from '../../helpers/server/eventually';
import { daemonWith, watched, type TestDaemon } from './daemonWith';

const open = (t: TestDaemon, threadId: string, extra: object = {}) =>
  t.call('thread.open', { threadId, cwd: '/tmp', provider: 'fake', model: 'm', ...extra });
const agentOf = async (t: TestDaemon, threadId: string) => (await t.call('thread.status', { threadId })).agent;
const completedTurns = async (store: EventStore, threadId: string) =>
  (await store.list(threadId)).filter((row) => row.type === 'turn/completed').map((row) => row.data.status);
/** Waits a few idle periods: long enough for an idle close that should happen to have happened. */
const idlePeriods = (n: number) => new Promise((resolve) => setTimeout(resolve, 40 * n));

describe('host daemon: agents start on demand and close when idle (issue 28)', () => {
  let store: EventStore;
  let t: TestDaemon;
  let provider: ReturnType<typeof fakeProvider>;
  let lifecycle: ReturnType<typeof watched>['lifecycle'];

  beforeEach(() => {
    store = createMemoryEventStore();
    provider = fakeProvider('fake');
    const wrapped = watched(provider);
    lifecycle = wrapped.lifecycle;
    t = daemonWith(store, [wrapped]);
  });
  afterEach(() => t.daemon.close());

  it('thread.open starts no agent; the first prompt starts it (stopped → running) and the turn completes', async () => {
    expect(await open(t, 'thr_a')).to.deep.equal({ providerThreadId: 'thr_a', agent: true });
    expect(provider.opened).to.have.length(0);
    expect(await agentOf(t, 'thr_a')).to.equal('stopped');
    expect(await t.call('thread.prompt', { threadId: 'thr_a', prompt: 'hi' })).to.deep.equal({
      followUp: false,
      providerThreadId: 'session-thr_a',
    });
    expect(provider.opened).to.have.length(1);
    await eventually(async () => ((await completedTurns(store, 'thr_a')).length ? true : undefined), 'the turn');
  });

  it('reports starting while the agent starts, then running, then stopped once closed', async () => {
    let release!: () => void;
    const slow = watched(fakeProvider('fake', { openGate: new Promise<void>((resolve) => (release = resolve)) }));
    const other = daemonWith(createMemoryEventStore(), [slow], 60_000);
    try {
      await open(other, 'thr_s');
      const prompted = other.call('thread.prompt', { threadId: 'thr_s', prompt: 'hi' });
      await eventually(async () => ((await agentOf(other, 'thr_s')) === 'starting' ? true : undefined), 'starting');
      release();
      await prompted;
      expect(await agentOf(other, 'thr_s')).to.equal('running');
      expect(await other.call('thread.close_agent', { threadId: 'thr_s' })).to.deep.equal({ seqs: [] });
      expect(await agentOf(other, 'thr_s')).to.equal('stopped');
      expect(slow.lifecycle.alive.get('thr_s')).to.equal(0);
    } finally {
      release();
      await other.daemon.close();
    }
  });

  it('closes an idle agent; the next prompt starts it again on the same session and the turn completes', async () => {
    await open(t, 'thr_i', { resumeProviderThreadId: 'session-old' });
    await t.call('thread.prompt', { threadId: 'thr_i', prompt: 'one' });
    await eventually(async () => ((await agentOf(t, 'thr_i')) === 'stopped' ? true : undefined), 'the idle close');
    expect(provider.disposed).to.deep.equal(['thr_i']);
    expect(t.logs).to.include('closed the idle agent of thread thr_i');

    expect((await t.call('thread.prompt', { threadId: 'thr_i', prompt: 'two' })).providerThreadId).to.equal('session-old');
    expect(provider.opened.map((o) => o.resumeProviderThreadId)).to.deep.equal(['session-old', 'session-old']);
    await eventually(async () => ((await completedTurns(store, 'thr_i')).length === 2 ? true : undefined), 'both turns');
    expect(lifecycle.mostAlive).to.equal(1);
  });

  it('a prompt racing the idle close waits for it and starts the agent again: never lost, never two agents', async () => {
    let release!: () => void;
    lifecycle.disposeGate = new Promise<void>((resolve) => (release = resolve));
    await open(t, 'thr_r');
    await t.call('thread.prompt', { threadId: 'thr_r', prompt: 'one' });
    // The idle close is under way (held at the dispose) when the second prompt comes.
    await eventually(() => (lifecycle.disposing === 1 ? true : undefined), 'the idle close begun');
    expect(await agentOf(t, 'thr_r')).to.equal('running');
    const prompted = t.call('thread.prompt', { threadId: 'thr_r', prompt: 'two' });
    await idlePeriods(1);
    expect(provider.opened).to.have.length(1); // not while the first agent is still there
    release();
    expect((await prompted).providerThreadId).to.equal('session-thr_r');
    expect(provider.opened).to.have.length(2);
    await eventually(async () => ((await completedTurns(store, 'thr_r')).length === 2 ? true : undefined), 'the raced prompt ran');
    expect(lifecycle.mostAlive).to.equal(1);
  });

  it('an open turn keeps the agent; once the turn ends the agent closes', async () => {
    await open(t, 'thr_h');
    await t.call('thread.prompt', { threadId: 'thr_h', prompt: 'hang' });
    await idlePeriods(5);
    expect(await agentOf(t, 'thr_h')).to.equal('running');
    await t.call('thread.stop', { threadId: 'thr_h' });
    await eventually(async () => ((await agentOf(t, 'thr_h')) === 'stopped' ? true : undefined), 'the idle close after the turn');
    expect(await completedTurns(store, 'thr_h')).to.deep.equal(['interrupted']);
  });

  it('a pending approval keeps the agent until it is answered', async () => {
    const asking = askingProvider();
    const other = daemonWith(createMemoryEventStore(), [asking]);
    try {
      await other.call('thread.open', { threadId: 'thr_q', cwd: '/work/p', provider: 'asking', model: 'm', permissionMode: 'ask' });
      await other.call('thread.prompt', { threadId: 'thr_q', prompt: 'make' });
      const [approvalId] = await eventually(async () => {
        const pending = (await other.call('thread.status', { threadId: 'thr_q' })).pendingApprovalIds;
        return pending.length ? pending : undefined;
      });
      await idlePeriods(5);
      expect(await agentOf(other, 'thr_q')).to.equal('running');
      await other.call('thread.approve', { threadId: 'thr_q', approvalId, optionId: 'allow-once' });
      await eventually(async () => ((await agentOf(other, 'thr_q')) === 'stopped' ? true : undefined), 'closed once answered');
    } finally {
      await other.daemon.close();
    }
  });

  it('keepAgentRunning: open starts the agent and it never idles out; keep_running off lets it close', async () => {
    await open(t, 'thr_k', { keepAgentRunning: true });
    expect(provider.opened).to.have.length(1);
    await t.call('thread.prompt', { threadId: 'thr_k', prompt: 'hi' });
    await idlePeriods(5);
    expect(await agentOf(t, 'thr_k')).to.equal('running');
    expect(await t.call('thread.keep_running', { threadId: 'thr_k', keepAgentRunning: false })).to.deep.equal({ agent: 'running' });
    await eventually(async () => ((await agentOf(t, 'thr_k')) === 'stopped' ? true : undefined), 'the idle close');
    expect(await t.call('thread.keep_running', { threadId: 'thr_k', keepAgentRunning: true })).to.deep.equal({ agent: 'running' });
    expect(provider.opened).to.have.length(2);
    expect(await t.call('thread.keep_running', { threadId: 'thr_none', keepAgentRunning: false })).to.deep.equal({ agent: 'stopped' });
    const notOpen = await t.call('thread.keep_running', { threadId: 'thr_none', keepAgentRunning: true }).catch((e) => e);
    expect(notOpen.data).to.deep.equal({ hostCode: 'thread_not_open' });
  });

  it('an agent started by an extension at open of a kept-running thread runs its turn', async () => {
    const early = fakeProvider('fake', { runWhileOpening: 'started by an extension' });
    const other = daemonWith(createMemoryEventStore(), [early]);
    try {
      await open(other, 'thr_e', { keepAgentRunning: true });
      expect(early.opened).to.have.length(1);
      await open(other, 'thr_lazy');
      expect(early.opened).to.have.length(1);
    } finally {
      await other.daemon.close();
    }
  });
});
