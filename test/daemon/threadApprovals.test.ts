import { expect } from 'chai';
import { createHostDaemon, type HostDaemon } from '../../src/daemon/hostDaemon';
import type { HostFileOperations } from '../../src/daemon/hostFileHandlers';
import { createThreadIngest } from '../../src/ingest/threadIngest';
import { createMemoryEventStore } from '../../src/store/memoryEventStore';
import { askingProvider, type AskingProvider } from '../helpers/fakes/askingProvider';
import { eventually } from '../helpers/server/eventually';

describe('host daemon: approvals and permission modes', () => {
  let daemon: HostDaemon;
  let provider: AskingProvider;
  let nextId = 1;
  const call = async (method: string, params: unknown): Promise<any> => {
    const response = (await daemon.dispatch({ jsonrpc: '2.0', id: nextId++, method, params })) as any;
    if (response.error) throw Object.assign(new Error(response.error.message), response.error);
    return response.result;
  };
  const open = (threadId: string, permissionMode = 'ask', keepAgentRunning = false) =>
    call('thread.open', { threadId, cwd: '/work/p', provider: 'asking', model: 'm', permissionMode, keepAgentRunning });

  beforeEach(() => {
    provider = askingProvider();
    daemon = createHostDaemon({
      identity: { hostId: 'host_test', name: 'test' },
      dataDir: '/tmp/unused',
      store: createMemoryEventStore(),
      providers: [provider],
      files: {} as HostFileOperations,
      createIngest: createThreadIngest,
      log: () => {},
    });
  });
  afterEach(() => daemon.close());

  it('opens the agent with the thread’s mode and an askUser; full-access is refused mode_not_allowed', async () => {
    await open('thr_a', 'accept-edits', true); // kept running: the agent starts at open
    expect(provider.opened[0]).to.deep.include({ permissionMode: 'accept-edits' });
    expect(provider.opened[0]!.askUser).to.be.a('function');
    const refused = await open('thr_b', 'full-access', true).catch((error) => error);
    expect(refused.data).to.deep.equal({ hostCode: 'mode_not_allowed' });
    expect(refused.message).to.contain('ATS_ALLOW_FULL_ACCESS=1');
    expect(provider.opened).to.have.length(1);
  });

  it('answers a question of a thread not open here unknown; configure on it is thread_not_open', async () => {
    expect(await call('thread.approve', { threadId: 'thr_x', approvalId: 'apr_1', optionId: 'allow-once' })).to.deep.equal({
      outcome: 'unknown',
    });
    const error = await call('thread.configure', { threadId: 'thr_x', permissionMode: 'ask' }).catch((e) => e);
    expect(error.data).to.deep.equal({ hostCode: 'thread_not_open' });
  });

  it('closing the daemon cancels the questions still waiting', async () => {
    await open('thr_c');
    await call('thread.prompt', { threadId: 'thr_c', prompt: 'make' });
    await eventually(async () => ((await call('thread.status', { threadId: 'thr_c' })).pendingApprovalIds.length ? true : undefined));
    await daemon.close();
    expect(provider.decisions.map((d) => d.decision)).to.deep.equal([
      { outcome: 'cancelled', decidedBy: 'cancelled', reason: 'the host daemon is shutting down' },
    ]);
  });
});
