import { expect } from 'chai';
import { DaemonConfigSchema } from '../../../src/config/daemonConfig';
import { startRemoteDaemon, type RunningRemoteDaemon } from '../../../src/daemon/remote/startRemoteDaemon';
import { askingProvider } from '../../helpers/fakes/askingProvider';
import { startHostsServer, type HostsServer } from '../../helpers/hosts/server';
import { eventually } from '../../helpers/server/eventually';
import { TEST_TOKEN } from '../../helpers/server/harness';
import { suiteTempDirs } from '../../helpers/temp/suiteDirs';

describe('hosts: approvals of a thread on a remote daemon', () => {
  let s: HostsServer;
  let daemon: RunningRemoteDaemon;
  const provider = askingProvider();
  const tempDir = suiteTempDirs();

  before(async () => {
    s = await startHostsServer();
    const settings = DaemonConfigSchema.parse({ server: s.linkBase, token: TEST_TOKEN, name: 'remote', allowFullAccess: '1' });
    daemon = await startRemoteDaemon({
      config: { ...settings, dataDir: await tempDir('ats-daemon-') },
      providers: [provider],
      log: () => {},
    });
    await s.hostOnline(daemon.hostId);
  });
  after(async () => {
    await daemon.close();
    await s.closeAll();
  });

  it('answers a question the remote agent asked through the link (200, then 409), and the remote host’s setting decides full-access', async () => {
    const folder = await tempDir('ats-remote-approvals-');
    const project = await s.json('/projects', { body: { name: 'r', source: { type: 'local_path', path: folder, hostId: daemon.hostId } } });
    const body = { projectId: project.id, provider: 'asking', model: 'fake/model', title: 'remote' };
    const thread = await s.json('/threads', { body: { ...body, permissionMode: 'ask', prompt: 'make' } });
    const approvalId = await eventually(async () => (await s.json(`/threads/${thread.id}`)).runtime.pendingApprovalIds[0], 'the question');
    const answered = await s.api(`/threads/${thread.id}/approvals/${approvalId}`, { body: { optionId: 'allow-once' } });
    expect(answered.status).to.equal(200);
    const decision = await eventually(() => provider.decisions.find((d) => d.threadId === thread.id)?.decision, 'the decision');
    expect(decision).to.include({ optionId: 'allow-once', decidedBy: 'user' });
    expect((await s.api(`/threads/${thread.id}/approvals/${approvalId}`, { body: { optionId: 'reject' } })).status).to.equal(409);
    // The embedded host of this server does not allow full-access; the remote daemon's owner did.
    const free = await s.json('/threads', { body: { ...body, permissionMode: 'full-access', prompt: 'make' } });
    const policy = await eventually(() => provider.decisions.find((d) => d.threadId === free.id)?.decision, 'the policy decision');
    expect(policy).to.include({ decidedBy: 'policy' });
  });
});
