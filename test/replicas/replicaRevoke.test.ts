import { expect } from 'chai';
import { Pool } from 'pg';
import { LINK_CLOSE } from '../../src/protocol/daemonLink';
import { startTestServer, type TestServer } from '../helpers/server/harness';
import { describeWithPostgres } from '../helpers/store/postgresDatabase';
import { suiteTempDirs } from '../helpers/temp/suiteDirs';
import { daemonRunner, enrollmentCode, hostListed } from '../server/hostAccess/daemons';
import { helloAs } from '../server/hostAccess/rawLink';
import { retryUntil } from './retryUntil';

describeWithPostgres('a host removed through one replica while attached to another (two servers on one PostgreSQL, issue 30)', (db) => {
  let a: TestServer;
  let b: TestServer;
  const daemons = daemonRunner(() => b.server.url);
  const replicaConfig = () => ({
    databaseUrl: db().url,
    agentProviders: 'none',
    replicaHeartbeatMs: 200,
    replicaDeadAfterMs: 1_000,
    hostReconnectGraceMs: 60_000,
    sseCatchUpMs: 200,
  });

  before(async function () {
    this.timeout(60_000);
    a = await startTestServer({ config: replicaConfig() });
    b = await startTestServer({ config: { ...replicaConfig(), embeddedHost: '0' } });
  });
  after(async () => {
    await daemons.stopAll();
    await b?.close();
    await a?.close();
  });
  const tempDir = suiteTempDirs();

  it('B closes the link with 4006, both list it no more, its threads wait for the host on both, and it cannot attach again', async function () {
    this.timeout(180_000);
    const dataDir = await tempDir('ats-replica-revoke-');
    // The code is made on A and traded on B: both read one registry.
    const daemon = await daemons.run(['--enroll', (await enrollmentCode(a)).code, '--data-dir', dataDir]);
    const { hostId } = daemon;
    expect(hostId, daemon.stderr()).to.match(/^host_/);
    await hostListed(a, hostId, true);
    const folder = await tempDir('ats-replica-revoke-root-');
    const project = await a.json('/projects', { body: { name: 'p', source: { type: 'local_path', path: folder, hostId } } });
    const thread = await a.json('/threads', { body: { projectId: project.id, provider: 'pi', model: 'fake/model', title: 't' } });

    expect((await a.api(`/hosts/${hostId}`, { method: 'DELETE' })).status).to.equal(204);

    expect(await daemon.exited).to.equal(2);
    expect(daemon.stderr()).to.include(`(${LINK_CLOSE.revoked} this host was removed from the server`);
    for (const t of [a, b]) {
      expect((await t.json('/hosts')).map((host: { id: string }) => host.id)).to.not.include(hostId);
      await retryUntil(async () =>
        expect((await t.json(`/threads/${thread.id}`)).runtime.displayStatus, 'thread on a removed host').to.equal('waiting-for-host'),
      );
    }
    const restarted = await daemons.run(['--data-dir', dataDir]);
    expect(await restarted.exited).to.equal(2);
    expect(restarted.stderr()).to.match(
      /refused this host's credential \(.*credential\) \(HTTP 401\); it is no longer valid: the host was removed/,
    );
  });

  it('a removal whose notification B never heard (its listener was cut) still closes B’s link once B listens again', async function () {
    this.timeout(60_000);
    const hostId = 'host_lostnotice';
    const { credential } = await a.json('/hosts/enroll', { auth: false, body: { code: (await enrollmentCode(a)).code, hostId } });
    const linked = await helloAs(b.server.url, credential, hostId);
    if (!('socket' in linked)) throw new Error(`not attached: ${JSON.stringify(linked)}`);
    await hostListed(a, hostId, true);
    // The removal's stored part only (no NOTIFY), then every listener's connection cut: B re-reads on reconnect.
    await a.server.hostAccess.revoke(hostId);
    const pool = new Pool({ connectionString: db().url });
    try {
      await pool.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'agent-thread-service listener'`);
    } finally {
      await pool.end();
    }
    expect((await linked.closed).code).to.equal(LINK_CLOSE.revoked);
  });
});
