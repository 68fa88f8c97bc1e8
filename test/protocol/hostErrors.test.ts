import { expect } from 'chai';
import { eventually } from '../helpers/server/eventually';
import { startLinkProxy, type LinkProxy } from '../helpers/hosts/proxy';
import { startHostsServer, type HostsServer } from '../helpers/hosts/server';
import { suiteTempDirs } from '../helpers/temp/suiteDirs';

describe('link: a remote host that does not answer (504) or is gone (502)', () => {
  let s: HostsServer;
  let proxy: LinkProxy;
  let hostId: string;
  let projectId: string;

  const online = (want: boolean) => s.hostOnline(hostId, want);

  before(async () => {
    // Heartbeats far apart, so a frozen link stays "online" long enough for a request to time out.
    s = await startHostsServer({ hostCommandTimeoutMs: 200 });
    proxy = await startLinkProxy(s.linkBase);
    hostId = (await s.daemon({ server: proxy.url })).hostId;
    await online(true);
    const folder = await tempDir('ats-host-errors-');
    projectId = (await s.json('/projects', { body: { name: 'p', source: { type: 'local_path', path: folder, hostId } } })).id;
  });
  after(async () => {
    await s.closeAll();
    await proxy.close();
  });

  const tempDir = suiteTempDirs();

  it('answers 504 host_timeout when the host does not answer within hostCommandTimeoutMs', async () => {
    proxy.freeze();
    const response = await s.api(`/projects/${projectId}/paths`);
    expect(response.status).to.equal(504);
    expect(await response.json()).to.include({ code: 'host_timeout' });
    proxy.restore();
    // The frozen socket is dropped on restore; the daemon redials and the same route answers again.
    await eventually(async () => ((await s.api(`/projects/${projectId}/paths`)).status === 200 ? true : undefined), 'served again');
  });

  it('answers 502 host_offline while the host is disconnected, and serves again once it relinks', async () => {
    proxy.cut();
    await online(false);
    const response = await s.api(`/projects/${projectId}/paths`);
    expect(response.status).to.equal(502);
    expect(await response.json()).to.include({ code: 'host_offline' });
    proxy.restore();
    await online(true);
    expect((await s.api(`/projects/${projectId}/paths`)).status).to.equal(200);
  });
});
