import { expect } from 'chai';
import { agentStart, textDelta } from '../../helpers/server/frames';
import { rpc } from '../../helpers/server/harness';
import { startLinkProxy, type LinkProxy } from '../../helpers/hosts/proxy';
import { startHostsServer, type HostsServer } from '../../helpers/hosts/server';
import { suiteTempDirs } from '../../helpers/temp/suiteDirs';

const GRACE_MS = 400;

describe('hosts: a thread whose host stays away past the reconnect grace (spec 2.4 runtime)', () => {
  let s: HostsServer;
  let proxy: LinkProxy;
  let hostId: string;
  let threadId: string;

  const online = (want: boolean) => s.hostOnline(hostId, want);

  before(async () => {
    s = await startHostsServer({ graceMs: GRACE_MS });
    proxy = await startLinkProxy(s.linkBase);
    hostId = (await s.daemon({ server: proxy.url })).hostId;
    await online(true);
    const folder = await tempDir('ats-grace-');
    const project = await s.json('/projects', { body: { name: 'p', source: { type: 'local_path', path: folder, hostId } } });
    threadId = (await s.json('/threads', { body: { projectId: project.id, provider: 'pi', model: 'fake/model', title: 't' } })).id;
  });
  after(async () => {
    await s.closeAll();
    await proxy.close();
  });

  const tempDir = suiteTempDirs();

  it('goes host-reconnecting, then waiting-for-host once the grace ran out, then idle again when the host returns', async () => {
    expect((await s.json(`/threads/${threadId}`)).runtime).to.deep.equal({
      displayStatus: 'idle',
      hostReconnectGraceExpiresAt: null,
      activity: 'idle',
      pendingApprovalIds: [],
    });
    proxy.cut();
    await online(false);
    const away = (await s.json(`/threads/${threadId}`)).runtime;
    expect(away.displayStatus).to.equal('host-reconnecting');
    expect(away.hostReconnectGraceExpiresAt).to.be.a('number');
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, away.hostReconnectGraceExpiresAt - Date.now()) + 20));
    expect((await s.json(`/threads/${threadId}`)).runtime).to.deep.equal({
      displayStatus: 'waiting-for-host',
      hostReconnectGraceExpiresAt: null,
      activity: 'idle',
      pendingApprovalIds: [],
    });
    proxy.restore();
    await online(true);
    expect((await s.json(`/threads/${threadId}`)).runtime).to.deep.equal({
      displayStatus: 'idle',
      hostReconnectGraceExpiresAt: null,
      activity: 'idle',
      pendingApprovalIds: [],
    });
  });

  it('shows a thread with a running turn as active while its host is away, from the rows it stored', async () => {
    const socket = await s.intake();
    await rpc(socket, agentStart(threadId, 1));
    await rpc(socket, textDelta(threadId, 'working ', 2));
    socket.close();
    proxy.cut();
    await online(false);
    const away = await s.json(`/threads/${threadId}`);
    expect(away.status).to.equal('active');
    expect(away.runtime.displayStatus).to.equal('host-reconnecting');
    proxy.restore();
    await online(true);
    expect((await s.json(`/threads/${threadId}`)).runtime).to.deep.equal({
      displayStatus: 'active',
      hostReconnectGraceExpiresAt: null,
      activity: 'working',
      pendingApprovalIds: [],
    });
  });
});
