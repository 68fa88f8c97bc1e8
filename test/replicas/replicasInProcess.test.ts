import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { HOST_DAEMON_PROTOCOL_VERSION } from '../../src/protocol/protocolVersion';
import { startRemoteDaemon, type RunningRemoteDaemon } from '../../src/daemon/remote/startRemoteDaemon';
import { describeWithPostgres } from '../helpers/store/postgresDatabase';
import { startTestServer, TEST_TOKEN, rpc, type TestServer } from '../helpers/server/harness';
import { openSse } from '../helpers/server/sse';
import { agentStart, assistantStart, textDelta } from '../helpers/server/frames';
import { retryUntil } from './retryUntil';

describeWithPostgres('replicas on one PostgreSQL (in one process)', (db) => {
  let a: TestServer;
  let b: TestServer;
  let folder: string;
  const replicaConfig = () => ({ databaseUrl: db().url, replicaHeartbeatMs: 200, replicaDeadAfterMs: 1_000, hostReconnectGraceMs: 60_000 });

  before(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'replicas-folder-'));
    a = await startTestServer({ config: replicaConfig() });
    b = await startTestServer({ config: { ...replicaConfig(), embeddedHost: '0' } });
  });
  after(async () => {
    await b?.close();
    await a?.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('shares the registry and reaches a host attached to the other replica (host commands forwarded)', async () => {
    expect(b.server.hostId).to.equal('');
    const hostOnB = await b.json(`/hosts/${a.server.hostId}`);
    expect(hostOnB).to.include({ id: a.server.hostId, online: true });
    // Registering a folder runs host.resolve_path on the host, through A.
    const project = await b.json('/projects', {
      body: { name: 'p', source: { type: 'local_path', path: folder, hostId: a.server.hostId } },
    });
    expect((await a.json(`/projects/${project.id}`)).name).to.equal('p');
    const listing = await b.json(`/projects/${project.id}/paths?query=`);
    expect(listing).to.have.property('truncated', false);
    const thread = await b.json('/threads', { body: { projectId: project.id, provider: 'pi', model: 'fake/model', title: 't' } });
    const viewOnB = await b.json(`/threads/${thread.id}`);
    expect(viewOnB).to.include({ status: 'idle' });
    expect(viewOnB.runtime).to.deep.equal({
      displayStatus: 'idle',
      hostReconnectGraceExpiresAt: null,
      activity: 'idle',
      pendingApprovalIds: [],
    });
  });

  it('takes intake frames on either replica, gapless, and streams them over SSE on both', async () => {
    const project = await a.json('/projects', {
      body: { name: 'q', source: { type: 'local_path', path: folder, hostId: a.server.hostId } },
    });
    const thread = await a.json('/threads', { body: { projectId: project.id, provider: 'pi', model: 'fake/model', title: 't' } });
    const headers = { authorization: `Bearer ${TEST_TOKEN}` };
    const sseA = await openSse(`${a.server.url}/api/v1/threads/${thread.id}/events/stream`, headers);
    const sseB = await openSse(`${b.server.url}/api/v1/threads/${thread.id}/events/stream`, headers);
    try {
      const [intakeA, intakeB] = [await a.intake(), await b.intake()];
      await rpc(intakeA, agentStart(thread.id, 1));
      await rpc(intakeB, assistantStart(thread.id, 2));
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) => rpc(i % 2 === 0 ? intakeA : intakeB, textDelta(thread.id, `d${i} `, 100 + i))),
      );
      for (const answer of answers) expect(answer).to.have.property('result');
      intakeA.close();
      intakeB.close();
      const rows = await b.json(`/threads/${thread.id}/events?limit=1000`);
      expect(rows.map((row: { seq: number }) => row.seq)).to.deep.equal(rows.map((_: unknown, i: number) => i + 1));
      const acked = answers.flatMap((answer) => answer.result.seqs as number[]);
      expect(new Set(acked).size).to.equal(acked.length);
      for (const sse of [sseA, sseB]) {
        const events = await sse.events(rows.length);
        expect(events.map((event) => Number(event.id))).to.deep.equal(rows.map((row: { seq: number }) => row.seq));
      }
    } finally {
      sseA.close();
      sseB.close();
    }
  });

  it('shows a remote daemon online on both replicas, and fails it over when its replica goes', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'replicas-daemon-'));
    const c = await startTestServer({ config: { ...replicaConfig(), embeddedHost: 'false' } });
    let daemon: RunningRemoteDaemon | undefined;
    try {
      daemon = await startRemoteDaemon({
        config: {
          server: `${c.server.url},${b.server.url}`,
          token: TEST_TOKEN,
          name: 'laptop',
          dataDir,
          reconnectInitialMs: 50,
          reconnectMaxMs: 200,
          maxPayloadBytes: 1 << 20,
          storeRetryMs: 100,
          protocolVersion: HOST_DAEMON_PROTOCOL_VERSION,
        },
        log: () => {},
      });
      const hostId = daemon.hostId;
      await retryUntil(async () => expect(await a.json(`/hosts/${hostId}`)).to.include({ online: true }));
      const project = await a.json('/projects', { body: { name: 'r', source: { type: 'local_path', path: folder, hostId } } });
      const thread = await a.json('/threads', { body: { projectId: project.id, provider: 'pi', model: 'fake/model', title: 't' } });
      await c.close();
      // The daemon redials B; until then A shows the host away, with the grace from when C let it go.
      await retryUntil(async () => expect(await a.json(`/hosts/${hostId}`)).to.include({ online: true }), 10_000);
      expect((await a.json(`/threads/${thread.id}`)).runtime.displayStatus).to.equal('idle');
      const listing = await a.json(`/projects/${project.id}/paths?query=`);
      expect(listing).to.have.property('truncated', false);
    } finally {
      await daemon?.close();
      await c.close().catch(() => {});
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
