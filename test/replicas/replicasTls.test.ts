import { expect } from 'chai';
import type { ConfigInput } from '../../src/config/serverConfig';
import { eventually } from '../helpers/server/eventually';
import { startTestServer, TEST_TOKEN, type TestServer } from '../helpers/server/harness';
import { describeWithPostgres } from '../helpers/store/postgresDatabase';
import { suiteTempDirs } from '../helpers/temp/suiteDirs';
import { httpsRequest } from '../helpers/tls/httpsClient';
import { makeTestCa, type TestCa } from '../helpers/tls/testCertificates';

describeWithPostgres('replicas over https forward host commands on wss links that trust ATS_TLS_CA (issue 30)', (db) => {
  let ca: TestCa;
  let folder: string;
  const servers: TestServer[] = [];
  const logs = new Map<TestServer, string[]>();
  after(async () => {
    for (const server of servers.reverse()) await server.close();
  });
  const tempDir = suiteTempDirs();

  const replica = async (config: ConfigInput) => {
    const served = await ca.issue(`replica-${servers.length}`);
    const lines: string[] = [];
    const server = await startTestServer({
      config: {
        databaseUrl: db().url,
        replicaHeartbeatMs: 200,
        agentProviders: 'none',
        tlsCert: served.certFile,
        tlsKey: served.keyFile,
        ...config,
      },
      log: (line) => lines.push(line),
    });
    servers.push(server);
    logs.set(server, lines);
    return server;
  };
  const createProject = (on: TestServer, hostId: string) =>
    httpsRequest(`${on.server.url}/api/v1/projects`, {
      ca: ca.ca,
      headers: { authorization: `Bearer ${TEST_TOKEN}` },
      body: { name: 'p', source: { type: 'local_path', path: folder, hostId } },
    });

  before(async () => {
    ca = await makeTestCa(await tempDir('ats-replicas-tls-'));
    folder = await tempDir('ats-replicas-tls-project-');
  });

  it('a replica given the CA reaches the host of another; one without it answers 502 and logs the setting to change', async () => {
    const a = await replica({});
    const b = await replica({ embeddedHost: '0', tlsCa: ca.caFile });
    const c = await replica({ embeddedHost: '0' });
    // The folder check runs on A's embedded host, asked by B over B's wss link to A.
    const created = await createProject(b, a.server.hostId);
    expect(created.status, created.text).to.equal(201);

    const refused = await createProject(c, a.server.hostId);
    expect(refused.status, refused.text).to.equal(502);
    const line = await eventually(() => logs.get(c)!.find((l) => l.startsWith('replica link to https://')), 'the replica link failure');
    expect(line).to.contain('is not trusted');
    expect(line).to.contain('--tls-ca / ATS_TLS_CA');
  });
});
