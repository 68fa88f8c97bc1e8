import { expect } from 'chai';
import { realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createHostDaemon, type HostDaemon } from '../../../src/daemon/hostDaemon';
import type { HostFileOperations } from '../../../src/daemon/hostFileHandlers';
import type { AgentProvider } from '../../../src/daemon/providers/agentProvider';
import { createThreadIngest } from '../../../src/ingest/threadIngest';
import { createMemoryEventStore } from '../../../src/store/memoryEventStore';
import { fakeProvider } from '../../helpers/fakes/provider';
import { eventually } from '../../helpers/server/eventually';
import { suiteTempDirs } from '../../helpers/temp/suiteDirs';
import { git, makeProject } from './gitFixture';

const THREAD = 'thr_turns00000000001';

/** The fake agent, but each prompt first writes the file its text names (`write <name> <content>`) in the thread's folder. */
function editingProvider(): AgentProvider {
  const inner = fakeProvider('fake');
  return {
    id: 'fake',
    async openThread(options) {
      const agent = await inner.openThread(options);
      return {
        ...agent,
        async prompt(text) {
          const [, name, content] = text.split(' ');
          writeFileSync(path.join(options.cwd, name!), `${content}\n`);
          return agent.prompt(text);
        },
      };
    },
  };
}

describe('turn trees: the daemon records the tree at each turn edge, so a turn diff stays exact', function () {
  this.timeout(60_000);
  const tempDir = suiteTempDirs();
  let daemon: HostDaemon | undefined;
  afterEach(() => daemon?.close());

  it('a checkout thread: each turn diff holds what that turn changed, even after later turns and edits between them', async () => {
    const root = realpathSync(await tempDir('ats-git-turns-'));
    const { checkout } = makeProject(root);
    const store = createMemoryEventStore();
    daemon = createHostDaemon({
      identity: { hostId: 'host_test', name: 'test' },
      dataDir: path.join(root, 'data'),
      store,
      providers: [editingProvider()],
      files: {} as HostFileOperations,
      createIngest: createThreadIngest,
      log: () => {},
    });
    let id = 1;
    const call = async (method: string, params: unknown): Promise<any> => {
      const response = (await daemon!.dispatch({ jsonrpc: '2.0', id: id++, method, params })) as any;
      if (response.error) throw Object.assign(new Error(response.error.message), { hostCode: response.error.data?.hostCode });
      return response.result;
    };
    const turnDiff = (turnId?: string) =>
      call('git.diff', { threadId: THREAD, path: checkout, scope: 'turn', ...(turnId ? { turnId } : {}) });
    const settled = (turnId?: string) =>
      eventually(async () => {
        const diff = await turnDiff(turnId).catch(() => undefined);
        return diff && diff.head !== 'worktree' ? diff : undefined;
      }, 'the turn end tree');
    const paths = (diff: any) => diff.files.map((file: any) => `${file.status} ${file.path}`);

    await call('thread.open', { threadId: THREAD, cwd: checkout, provider: 'fake', model: 'm' });
    await call('thread.prompt', { threadId: THREAD, prompt: 'write first.txt one' });
    const first = await settled();
    expect(paths(first)).to.deep.equal(['added first.txt']);
    expect(first.files[0].hunks[0].lines).to.deep.equal([{ kind: 'add', text: 'one' }]);

    writeFileSync(path.join(checkout, 'between.txt'), 'the user, between turns\n');
    await call('thread.prompt', { threadId: THREAD, prompt: 'write second.txt two' });
    const second = await eventually(async () => {
      const diff = await settled();
      return diff.turnId !== first.turnId ? diff : undefined;
    }, 'the second turn');
    expect(paths(second)).to.deep.equal(['added second.txt']);
    expect(paths(await turnDiff(first.turnId))).to.deep.equal(['added first.txt']);
    const turnIds = (await store.list(THREAD)).filter((row) => row.type === 'turn/started').map((row) => row.turnId);
    expect([first.turnId, second.turnId]).to.deep.equal(turnIds);

    expect(git(checkout, 'branch', '--list').trim().split('\n')).to.have.length(2); // main and user-branch: no commit of ours
    expect(git(checkout, 'log', '--all', '--format=%s')).to.not.include('turn');
    await call('git.worktree_remove', { threadId: THREAD, projectId: 'proj_a', checkout, keepSnapshot: false });
    expect(git(checkout, 'for-each-ref', 'refs/ats/')).to.equal('');
  });
});
