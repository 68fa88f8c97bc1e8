import { expect } from 'chai';
import { fakeProvider } from '../helpers/fakes/provider';
import { archiveRace, disagreeing } from '../helpers/server/archiveRace';
import { startTestServer, type TestServer } from '../helpers/server/harness';
import { describeWithPostgres } from '../helpers/store/postgresDatabase';
import { suiteTempDirs } from '../helpers/temp/suiteDirs';

describeWithPostgres('one owner per thread across replicas (issue 37): two servers on one PostgreSQL', (db) => {
  let a: TestServer;
  let b: TestServer;
  const tempDir = suiteTempDirs();
  const replicaConfig = () => ({ databaseUrl: db().url, replicaHeartbeatMs: 200, replicaDeadAfterMs: 1_000, sseCatchUpMs: 200 });

  before(async () => {
    a = await startTestServer({ config: replicaConfig(), providers: [fakeProvider('pi')] });
    b = await startTestServer({ config: { ...replicaConfig(), embeddedHost: '0' } });
  });
  after(async () => {
    await b?.close();
    await a?.close();
  });

  it('20 rounds of 20 concurrent archive toggles, half through each replica: the record and the last thread/updated row agree', async function () {
    this.timeout(120_000); // 400 PATCHes, each of a round waiting for the one before it
    const folder = await tempDir('ats-replica-archive-race-');
    const project = await b.json('/projects', {
      body: { name: 'p', source: { type: 'local_path', path: folder, hostId: a.server.hostId } },
    });
    const thread = await b.json('/threads', { body: { projectId: project.id, provider: 'pi', model: 'fake/model', title: 't' } });
    const rounds = await archiveRace([a, b], thread.id, 20, 20);
    expect(disagreeing(rounds)).to.deep.equal([]);
  });
});
