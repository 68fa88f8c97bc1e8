import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { LINK_CLOSE } from '../../../src/protocol/daemonLink';
import { startTestServer, TEST_TOKEN, type TestServer } from '../../helpers/server/harness';
import { suiteTempDirs } from '../../helpers/temp/suiteDirs';
import { daemonRunner, enrollmentCode, hostListed } from './daemons';
import { helloAs } from './rawLink';

describe('hosts: DELETE /hosts/:id removes a host while it is attached (issue 30, one server)', function () {
  this.timeout(180_000);
  let t: TestServer;
  const daemons = daemonRunner(() => t.server.url);

  before(async () => {
    t = await startTestServer({ config: { agentProviders: 'none', hostReconnectGraceMs: 60_000 } });
  });
  after(async () => {
    await daemons.stopAll();
    await t?.close();
  });
  const tempDir = suiteTempDirs();

  it('closes its link with 4006 (the daemon exits saying so), lists it no more, shows its threads waiting for the host, and lets it back only after a new enrollment', async () => {
    const dataDir = await tempDir('ats-revoke-data-');
    const folder = await tempDir('ats-revoke-root-');
    const daemon = await daemons.run(['--enroll', (await enrollmentCode(t)).code, '--data-dir', dataDir]);
    const { hostId } = daemon;
    await hostListed(t, hostId, true);
    const project = await t.json('/projects', { body: { name: 'p', source: { type: 'local_path', path: folder, hostId } } });
    const thread = await t.json('/threads', { body: { projectId: project.id, provider: 'pi', model: 'fake/model', title: 'on the host' } });
    expect((await t.json(`/threads/${thread.id}`)).runtime.displayStatus).to.equal('idle');

    const removed = await t.api(`/hosts/${hostId}`, { method: 'DELETE' });
    expect(removed.status).to.equal(204);

    expect(await daemon.exited).to.equal(2);
    expect(daemon.stderr()).to.match(
      /daemon stopped: the server removed this host \(4006 this host was removed from the server; enroll it again/,
    );
    expect((await t.json('/hosts')).map((host: { id: string }) => host.id)).to.not.include(hostId);
    expect((await t.api(`/hosts/${hostId}`)).status).to.equal(404);
    expect((await t.json(`/threads/${thread.id}`)).runtime).to.include({
      displayStatus: 'waiting-for-host',
      hostReconnectGraceExpiresAt: null,
    });

    // No way back in: its credential, the server's token as its id, or a restart of the daemon.
    const credential = (await readFile(path.join(dataDir, 'credential'), 'utf8')).trim();
    expect(await helloAs(t.server.url, credential, hostId)).to.deep.equal({ refusedStatus: 401 });
    const asToken = await helloAs(t.server.url, TEST_TOKEN, hostId);
    expect(asToken).to.have.nested.property('closed.code', LINK_CLOSE.revoked);
    const restarted = await daemons.run(['--data-dir', dataDir]);
    expect(await restarted.exited).to.equal(2);
    expect(restarted.stderr()).to.match(
      /refused this host's credential \(.*credential\) \(HTTP 401\); it is no longer valid: the host was removed/,
    );
    expect((await t.json('/hosts')).map((host: { id: string }) => host.id)).to.not.include(hostId);

    // A new code brings it back under the same id, with its threads.
    const reenrolled = await daemons.run(['--enroll', (await enrollmentCode(t)).code, '--data-dir', dataDir]);
    expect(reenrolled.hostId).to.equal(hostId);
    await hostListed(t, hostId, true);
    expect((await t.json(`/threads/${thread.id}`)).runtime.displayStatus).to.equal('idle');
    await reenrolled.kill('SIGTERM');
  });

  it('refuses to remove the server’s own host (409) and answers 404 for a host it does not know', async () => {
    const own = await t.api(`/hosts/${t.server.hostId}`, { method: 'DELETE' });
    expect(own.status).to.equal(409);
    expect((await own.json()).code).to.equal('host_is_embedded');
    expect((await t.json(`/hosts/${t.server.hostId}`)).online).to.equal(true);
    const unknown = await t.api('/hosts/host_nobody', { method: 'DELETE' });
    expect(unknown.status).to.equal(404);
    expect((await unknown.json()).code).to.equal('host_not_found');
  });

  it('removes a host that enrolled but never attached: its credential stops working', async () => {
    const { code } = await enrollmentCode(t);
    const { credential } = await t.json('/hosts/enroll', { auth: false, body: { code, hostId: 'host_neverattached' } });
    expect((await t.api('/hosts/host_neverattached', { method: 'DELETE' })).status).to.equal(204);
    expect(await helloAs(t.server.url, credential, 'host_neverattached')).to.deep.equal({ refusedStatus: 401 });
  });
});
