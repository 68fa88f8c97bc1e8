import { expect } from 'chai';
import { createHostDaemon, type HostDaemon } from '../../src/daemon/hostDaemon';
import type { HostFileOperations } from '../../src/daemon/hostFileHandlers';
import { createThreadIngest } from '../../src/ingest/threadIngest';
import { createMemoryEventStore } from '../../src/store/memoryEventStore';
import type { EventStore } from '../../src/store/eventStore';
import type { AgentProvider } from '../../src/daemon/providers/agentProvider';
import { agentStart } from '../helpers/server/frames';
import { fakeProvider } from '../helpers/fakes/provider';
import { eventually } from '../helpers/server/eventually';

const noFiles = {} as HostFileOperations;

describe('host daemon: thread commands', () => {
  let store: EventStore;
  let daemon: HostDaemon;
  let nextId = 1;
  let provider: ReturnType<typeof fakeProvider>;
  let brokenAttempts = 0;
  let logs: string[];
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
    logs = [];
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
      log: (message) => logs.push(message),
    });
  });
  afterEach(() => daemon.close());

  it('says hello with its providers and the protocol version', () => {
    expect(daemon.hello).to.deep.include({ hostId: 'host_test', providers: ['fake', 'broken'], protocolVersion: 157 });
  });

  it('thread.open of a kept-running thread starts the agent once and answers with its session id; opening again and prompting reuse it', async () => {
    const params = { threadId: 'thr_a', cwd: '/tmp', provider: 'fake', model: 'm', keepAgentRunning: true };
    const first = await call('thread.open', params);
    expect(first).to.deep.equal({ providerThreadId: 'session-thr_a', agent: true });
    expect(provider.opened.map((o) => o.threadId)).to.deep.equal(['thr_a']);
    expect(await call('thread.open', params)).to.deep.equal(first);
    expect(await call('thread.prompt', { threadId: 'thr_a', prompt: 'hi' })).to.deep.equal({
      followUp: false,
      providerThreadId: 'session-thr_a',
    });
    expect(provider.opened).to.have.length(1);
  });

  it('thread.open resumes the session the server names, and starts nothing for a provider this host does not run', async () => {
    expect(
      await call('thread.open', {
        threadId: 'thr_r',
        cwd: '/tmp',
        provider: 'fake',
        model: 'm',
        resumeProviderThreadId: 'session-old',
        keepAgentRunning: true,
      }),
    ).to.deep.equal({
      providerThreadId: 'session-old',
      agent: true,
    });
    expect(provider.opened[0]!.resumeProviderThreadId).to.equal('session-old');
    // An intake-only thread's providerThreadId is its own id (or the server's hint): never a session to resume.
    expect(await call('thread.open', { threadId: 'thr_i', cwd: '/tmp', provider: 'pi', model: 'm' })).to.deep.equal({
      providerThreadId: 'thr_i',
      agent: false,
    });
    expect(
      await call('thread.open', {
        threadId: 'thr_x',
        cwd: '/tmp',
        provider: 'fake',
        model: 'm',
        resumeProviderThreadId: 'thr_x',
        keepAgentRunning: true,
      }),
    ).to.deep.equal({
      providerThreadId: 'session-thr_x',
      agent: true,
    });
    expect(provider.opened.map((o) => o.threadId)).to.deep.equal(['thr_r', 'thr_x']);
  });

  it('an agent that cannot start does not fail the open (logged); the prompt reports agent_failed, and each command tries again', async () => {
    const params = { threadId: 'thr_f', cwd: '/tmp', provider: 'broken', model: 'm', keepAgentRunning: true };
    expect(await call('thread.open', params)).to.deep.equal({ providerThreadId: 'thr_f', agent: true });
    expect(logs.join('\n')).to.contain('thr_f').and.contain('no such model');
    const error = await call('thread.prompt', { threadId: 'thr_f', prompt: 'hi' }).catch((e) => e);
    expect(error.data).to.deep.equal({ hostCode: 'agent_failed' });
    expect(error.message).to.contain('no such model');
    await call('thread.open', params);
    expect(brokenAttempts).to.equal(3);
  });

  it('stores a run the agent started while opening (an extension in session_start) under its session id, as an agent turn', async () => {
    const early = fakeProvider('early', { runWhileOpening: 'started by an extension' });
    const other = createHostDaemon({
      identity: { hostId: 'host_early', name: 'early' },
      dataDir: '/tmp/unused',
      store,
      providers: [early],
      files: noFiles,
      createIngest: createThreadIngest,
      log: () => {},
    });
    try {
      const opened = (await other.dispatch({
        jsonrpc: '2.0',
        id: 1,
        method: 'thread.open',
        params: { threadId: 'thr_early', cwd: '/tmp', provider: 'early', model: 'm', keepAgentRunning: true },
      })) as any;
      expect(opened.result).to.deep.equal({ providerThreadId: 'session-thr_early', agent: true });
      const rows = await eventually(async () => {
        const stored = await store.list('thr_early');
        return stored.some((row) => row.type === 'turn/completed') ? stored : undefined;
      }, 'the early turn');
      expect(rows[0]!.data).to.deep.include({ origin: 'agent', providerThreadId: 'session-thr_early' });
      expect(rows.every((row) => row.data.providerThreadId === 'session-thr_early')).to.equal(true);
    } finally {
      await other.close();
    }
  });

  it('disposes every agent on close, and a closing daemon starts no new one (host_closing)', async () => {
    await call('thread.open', { threadId: 'thr_a', cwd: '/tmp', provider: 'fake', model: 'm', keepAgentRunning: true });
    await daemon.close();
    expect(provider.disposed).to.deep.equal(['thr_a']);
    const error = await call('thread.open', { threadId: 'thr_b', cwd: '/tmp', provider: 'fake', model: 'm' }).catch((e) => e);
    expect(error.data).to.deep.equal({ hostCode: 'host_closing' });
    expect(provider.opened.map((o) => o.threadId)).to.deep.equal(['thr_a']);
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
    expect(await call('thread.status', { threadId: 'thr_a' })).to.deep.equal({
      status: 'idle',
      agent: 'running',
      pendingApprovalIds: [],
      lastTurnStatus: 'completed',
    });
  });

  it('a prompt while a turn runs is a follow-up', async () => {
    await call('thread.open', { threadId: 'thr_a', cwd: '/tmp', provider: 'fake', model: 'm' });
    await call('thread.prompt', { threadId: 'thr_a', prompt: 'hang' });
    await eventually(
      async () => ((await call('thread.status', { threadId: 'thr_a' })).status === 'active' ? true : undefined),
      'an open turn',
    );
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

  it("thread.ingest relays the pipeline's own JSON-RPC error for a bad frame", async () => {
    const error = await call('thread.ingest', { frame: { jsonrpc: '2.0', method: 'sdk/message', params: { threadId: 'thr_e' } } }).catch(
      (e) => e,
    );
    expect(error.code).to.equal(-32602);
    expect(error.data.hostCode).to.equal('ingest_rejected');
  });
});
