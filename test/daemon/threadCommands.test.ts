import { expect } from 'chai';
import { createHostDaemon, type HostDaemon } from '../../src/daemon/hostDaemon';
import type { HostFileOperations } from '../../src/daemon/hostFileHandlers';
import { createThreadIngest } from '../../src/ingest/threadIngest';
import { createMemoryEventStore } from '../../src/store/memoryEventStore';
import type { EventStore } from '../../src/store/eventStore';
import type { AgentProvider } from '../../src/daemon/providers/agentProvider';
import { agentStart } from '../helpers/serverFrames';
import { fakeProvider } from '../helpers/serverFakeProvider';
import { eventually } from '../helpers/serverEventually';

const noFiles = {} as HostFileOperations;

describe('host daemon: thread commands', () => {
  let store: EventStore;
  let daemon: HostDaemon;
  let nextId = 1;
  let provider: ReturnType<typeof fakeProvider>;
  let brokenAttempts = 0;
  const call = async (method: string, params: unknown): Promise<any> => {
    const response = (await daemon.dispatch({ jsonrpc: '2.0', id: nextId++, method, params })) as any;
    if (response.error) throw Object.assign(new Error(response.error.message), response.error);
    return response.result;
  };
  const types = async (threadId: string) => (await store.list(threadId)).map((row) => row.type);

  beforeEach(() => {
    store = createMemoryEventStore();
    provider = fakeProvider('fake');
    brokenAttempts = 0;
    const broken: AgentProvider = {
      id: 'broken',
      openThread: async () => {
        brokenAttempts++;
        throw new Error('no such model: m');
      },
    };
    daemon = createHostDaemon({
      identity: { hostId: 'host_test', name: 'test' },
      dataDir: '/tmp/unused',
      store,
      providers: [provider, broken],
      files: noFiles,
      createIngest: createThreadIngest,
      log: () => {},
    });
  });
  afterEach(() => daemon.close());

  it('says hello with its providers and the protocol version', () => {
    expect(daemon.hello).to.deep.include({ hostId: 'host_test', providers: ['fake', 'broken'], protocolVersion: 150 });
  });

  it('thread.open is idempotent and does not start the agent; the first prompt does', async () => {
    const params = { threadId: 'thr_a', cwd: '/tmp', provider: 'fake', model: 'm' };
    const first = await call('thread.open', params);
    expect(first).to.deep.equal({ providerThreadId: 'thr_a', agent: true });
    expect(await call('thread.open', params)).to.deep.equal(first);
    expect(provider.opened).to.have.length(0);
    expect(await call('thread.prompt', { threadId: 'thr_a', prompt: 'hi' })).to.deep.equal({ followUp: false, providerThreadId: 'session-thr_a' });
    expect(provider.opened.map((o) => o.threadId)).to.deep.equal(['thr_a']);
    expect((await call('thread.open', params)).providerThreadId).to.equal('session-thr_a');
  });

  it('reports an agent that cannot start as agent_failed, and tries again on the next prompt', async () => {
    await call('thread.open', { threadId: 'thr_f', cwd: '/tmp', provider: 'broken', model: 'm' });
    const error = await call('thread.prompt', { threadId: 'thr_f', prompt: 'hi' }).catch((e) => e);
    expect(error.data).to.deep.equal({ hostCode: 'agent_failed' });
    expect(error.message).to.contain('no such model');
    await call('thread.prompt', { threadId: 'thr_f', prompt: 'hi' }).catch(() => undefined);
    expect(brokenAttempts).to.equal(2);
  });

  it('a prompt on an idle thread runs a client-started turn that completes (E5)', async () => {
    await call('thread.open', { threadId: 'thr_a', cwd: '/tmp', provider: 'fake', model: 'm' });
    expect((await call('thread.prompt', { threadId: 'thr_a', prompt: 'hi' })).followUp).to.equal(false);
    const rows = await eventually(async () => {
      const stored = await store.list('thr_a');
      return stored.some((row) => row.type === 'turn/completed') ? stored : undefined;
    }, 'turn/completed');
    expect(rows[0]!.type).to.equal('turn/started');
    expect(rows[0]!.data.origin).to.equal('client');
    expect(rows.filter((row) => row.type === 'turn/completed')).to.have.length(1);
    expect(await call('thread.status', { threadId: 'thr_a' })).to.deep.equal({ status: 'idle' });
  });

  it('a prompt while a turn runs is a follow-up', async () => {
    await call('thread.open', { threadId: 'thr_a', cwd: '/tmp', provider: 'fake', model: 'm' });
    await call('thread.prompt', { threadId: 'thr_a', prompt: 'hang' });
    await eventually(async () => ((await call('thread.status', { threadId: 'thr_a' })).status === 'active' ? true : undefined), 'an open turn');
    expect((await call('thread.prompt', { threadId: 'thr_a', prompt: 'more' })).followUp).to.equal(true);
  });

  it('refuses a prompt without an agent (no_agent_provider) and for a thread it never opened (thread_not_open)', async () => {
    await call('thread.open', { threadId: 'thr_b', cwd: '/tmp', provider: 'pi', model: 'm' });
    const noAgent = await call('thread.prompt', { threadId: 'thr_b', prompt: 'hi' }).catch((error) => error);
    expect(noAgent.data).to.deep.equal({ hostCode: 'no_agent_provider' });
    const notOpen = await call('thread.prompt', { threadId: 'thr_c', prompt: 'hi' }).catch((error) => error);
    expect(notOpen.data).to.deep.equal({ hostCode: 'thread_not_open' });
  });

  it('thread.ingest stores intake frames under the providerThreadId the server knows', async () => {
    expect(await call('thread.ingest', { frame: agentStart('thr_d'), providerThreadId: 'session-old' })).to.deep.equal({ seqs: [1] });
    expect((await store.list('thr_d'))[0]!.data.providerThreadId).to.equal('session-old');
    expect(await types('thr_d')).to.deep.equal(['turn/started']);
  });

  it('thread.ingest relays the pipeline\'s own JSON-RPC error for a bad frame', async () => {
    const error = await call('thread.ingest', { frame: { jsonrpc: '2.0', method: 'sdk/message', params: { threadId: 'thr_e' } } }).catch((e) => e);
    expect(error.code).to.equal(-32602);
    expect(error.data.hostCode).to.equal('ingest_rejected');
  });
});
