import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { initRepo } from '../../helpers/git/gitRepo';
import { eventually } from '../../helpers/server/eventually';
import { startTestServer, type TestServer } from '../../helpers/server/harness';
import { suiteTempDirs } from '../../helpers/temp/suiteDirs';

describe('server: a host’s worktrees pruned at its hello (issue 38)', function () {
  this.timeout(60_000);
  const tempDir = suiteTempDirs();
  let t: TestServer | undefined;
  after(() => t?.close());

  it('removes the worktree of a thread the registry no longer has, and keeps every live thread’s', async () => {
    t = await startTestServer();
    const checkout = await tempDir('ats-prune-checkout-');
    initRepo(checkout, { 'a.txt': 'a\n' });
    const project = await t.json('/projects', {
      body: { name: 'p', source: { type: 'local_path', path: checkout, hostId: t.server.hostId } },
    });
    const create = (title: string) =>
      t!.json('/threads', { body: { projectId: project.id, provider: 'pi', model: 'm', title, workspace: 'worktree' } });
    const gone = await create('gone');
    const live = await create('live');
    const archived = await create('archived');
    await t.json(`/threads/${archived.id}`, { method: 'PATCH', body: { archived: true } });
    // A thread whose delete the host never heard of (the record went while the host was away).
    await t.server.registry.threads.remove(gone.id);
    const dataDir = t.dataDir;
    await t.close({ keepData: true });
    t = await startTestServer({ dataDir });
    await eventually(() => (existsSync(gone.workspace.path) ? undefined : true), 'the orphan worktree removed', 30_000);
    expect(existsSync(live.workspace.path)).to.equal(true);
    const restored = await t.json(`/threads/${archived.id}`, { method: 'PATCH', body: { archived: false } });
    expect(restored.workspace.state).to.equal('ready');
    expect(existsSync(restored.workspace.path)).to.equal(true);
  });
});
