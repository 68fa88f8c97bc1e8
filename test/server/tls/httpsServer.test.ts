import { expect } from 'chai';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';
import { configWith, type ConfigInput } from '../../../src/config/serverConfig';
import { startRemoteDaemon, type RemoteDaemonSettings } from '../../../src/daemon/remote/startRemoteDaemon';
import { HOST_DAEMON_PROTOCOL_VERSION } from '../../../src/protocol/protocolVersion';
import { startServer } from '../../../src/server/startServer';
import { startDaemonProcess } from '../../helpers/hosts/daemonProcess';
import { eventually } from '../../helpers/server/eventually';
import { agentEnd, agentStart } from '../../helpers/server/frames';
import { rpc, startTestServer, TEST_TOKEN, type TestServer } from '../../helpers/server/harness';
import { openStalledSse } from '../../helpers/server/sse';
import { suiteTempDirs } from '../../helpers/temp/suiteDirs';
import { httpsRequest, servedFingerprint } from '../../helpers/tls/httpsClient';
import { makeSelfSignedCertificate, makeTestCa, type TestCa, type TestCertificate } from '../../helpers/tls/testCertificates';

const bearer = { authorization: `Bearer ${TEST_TOKEN}` };

describe('HTTPS and WSS on the server’s one port, with a private CA (issue 30)', function () {
  this.timeout(60_000);
  let t: TestServer;
  let ca: TestCa;
  let folder: string;
  const api = (pathname: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
    httpsRequest(`${t.server.url}/api/v1${pathname}`, { ca: ca.ca, headers: { ...bearer, ...init.headers }, ...init });
  const json = async (pathname: string, body?: unknown) => {
    const answer = await api(pathname, { body });
    expect(answer.status, `${pathname} → ${answer.text}`).to.be.oneOf([200, 201]);
    return JSON.parse(answer.text);
  };

  after(() => t?.close());
  const tempDir = suiteTempDirs();

  before(async () => {
    ca = await makeTestCa(await tempDir('ats-tls-ca-'));
    const served = await ca.issue('server');
    folder = await tempDir('ats-tls-project-');
    t = await startTestServer({ config: { agentProviders: 'none', tlsCert: served.certFile, tlsKey: served.keyFile } });
  });

  it('answers the API and the page over https only, and says https in its URL', async () => {
    expect(t.server.url).to.match(/^https:\/\/127\.0\.0\.1:\d+$/);
    const [host] = await json('/hosts');
    expect(host).to.include({ id: t.server.hostId, online: true });
    const page = await httpsRequest(`${t.server.url}/`, { ca: ca.ca });
    expect(page.status).to.equal(200);
    expect(page.headers['content-type']).to.contain('text/html');
    // A client that does not trust the CA gets no answer at all, and neither does plain http on that port.
    const untrusted = await fetch(`${t.server.url}/api/v1/health`).catch((error: Error) => error);
    expect(untrusted).to.be.instanceOf(Error);
    const plain = await fetch(`${t.server.url.replace('https', 'http')}/api/v1/health`).catch((error: Error) => error);
    expect(plain).to.be.instanceOf(Error);
  });

  it('signs a browser in with a Secure session cookie', async () => {
    const answer = await api('/session', { body: { token: TEST_TOKEN }, headers: { authorization: '' } });
    expect(answer.status).to.equal(201);
    const cookie = String(answer.headers['set-cookie']);
    expect(cookie).to.match(/^ats_session=/);
    expect(cookie.toLowerCase()).to.match(/;\s*secure/);
    expect(cookie.toLowerCase()).to.match(/;\s*httponly/);
  });

  it('streams a thread’s rows over SSE while the intake sends them over wss', async () => {
    const project = await json('/projects', { name: 'tls', source: { type: 'local_path', path: folder, hostId: t.server.hostId } });
    const thread = await json('/threads', { projectId: project.id, provider: 'pi', model: 'fake/model', title: 'tls' });
    const sse = await openStalledSse(`${t.server.url}/api/v1/threads/${thread.id}/events/stream`, bearer, { ca: ca.ca });
    sse.read();
    const intake = new WebSocket(`${t.server.url.replace('https', 'wss')}/api/v1/intake`, { headers: bearer, ca: ca.ca });
    await new Promise((resolve, reject) => intake.once('open', resolve).once('error', reject));
    try {
      expect(sse.status).to.equal(200);
      expect(await rpc(intake, agentStart(thread.id, 1))).to.have.property('result');
      expect(await rpc(intake, agentEnd(thread.id, 'over TLS', 2))).to.have.property('result');
      const rows = JSON.parse((await api(`/threads/${thread.id}/events`)).text) as { seq: number }[];
      const events = await sse.events(rows.length);
      expect(events.map((event) => Number(event.id))).to.deep.equal(rows.map((row) => row.seq));
      expect(JSON.stringify(events.map((event) => event.data))).to.contain('over TLS');
    } finally {
      intake.close();
      sse.close();
    }
  });

  it('links a daemon process given the CA with --ca over wss: its host comes online and runs a thread', async () => {
    const daemon = await startDaemonProcess(
      ['--server', t.server.url, '--token', TEST_TOKEN, '--ca', ca.caFile, '--data-dir', await tempDir('ats-tls-daemon-')].concat([
        '--name',
        'tls-box',
        '--agent-providers',
        'none',
      ]),
      { via: 'node' },
    );
    try {
      expect(daemon.hostId, daemon.stderr()).to.match(/^host_/);
      await eventually(
        async () =>
          (await json('/hosts')).find((host: { id: string; online: boolean }) => host.id === daemon.hostId && host.online)
            ? true
            : undefined,
        'the daemon online over wss',
        30_000,
      );
      // Host commands go to the daemon over the link (the folder check) and its pipeline's rows come back over it.
      const project = await json('/projects', { name: 'remote', source: { type: 'local_path', path: folder, hostId: daemon.hostId } });
      const thread = await json('/threads', { projectId: project.id, provider: 'pi', model: 'fake/model', title: 'remote' });
      const intake = new WebSocket(`${t.server.url.replace('https', 'wss')}/api/v1/intake`, { headers: bearer, ca: ca.ca });
      await new Promise((resolve, reject) => intake.once('open', resolve).once('error', reject));
      await rpc(intake, agentStart(thread.id, 1));
      await rpc(intake, agentEnd(thread.id, 'from the remote host', 2));
      intake.close();
      const rows = await eventually(async () => {
        const stored = JSON.parse((await api(`/threads/${thread.id}/events`)).text) as { type: string }[];
        return stored.some((row) => row.type === 'turn/completed') ? stored : undefined;
      }, 'the remote host’s rows');
      expect(JSON.stringify(rows)).to.contain('from the remote host');
    } finally {
      await daemon.kill('SIGTERM');
    }
  });

  it('a daemon that does not trust the certificate stops (exit 2) and says to pass the CA with --ca', async () => {
    const daemon = await startDaemonProcess(
      ['--server', t.server.url, '--token', TEST_TOKEN, '--data-dir', await tempDir('ats-tls-untrusting-'), '--agent-providers', 'none'],
      { via: 'node' },
    );
    expect(await daemon.exited).to.equal(2);
    expect(daemon.stderr()).to.contain(
      `daemon stopped: this daemon refused the server: the certificate of ${t.server.url.replace('https', 'wss')}`,
    );
    expect(daemon.stderr()).to.contain('is not trusted');
    expect(daemon.stderr()).to.contain('--ca FILE (ATS_DAEMON_CA)');
  });

  const remoteSettings = async (server: string, ca?: string): Promise<RemoteDaemonSettings> => ({
    server,
    ca,
    token: TEST_TOKEN,
    name: 'in-process',
    dataDir: await tempDir('ats-tls-remote-'),
    reconnectInitialMs: 100,
    reconnectMaxMs: 1000,
    maxPayloadBytes: 1 << 20,
    storeRetryMs: 100,
    protocolVersion: HOST_DAEMON_PROTOCOL_VERSION,
  });

  it('a daemon whose --ca file is missing does not start, naming --ca', async () => {
    const missing = path.join(folder, 'no-such-ca.crt');
    const failure = await startRemoteDaemon({ config: await remoteSettings(t.server.url, missing), log: () => {} }).catch(
      (error: Error) => error,
    );
    expect(failure).to.be.instanceOf(Error);
    expect((failure as Error).message).to.equal(
      `cannot read the CA file ${missing} (--ca FILE (ATS_DAEMON_CA)): ENOENT: no such file or directory, open '${missing}'`,
    );
  });

  it('a daemon dialling http:// on the TLS port is told to dial https://', async () => {
    const logs: string[] = [];
    const daemon = await startRemoteDaemon({
      config: await remoteSettings(t.server.url.replace('https', 'http')),
      log: (line) => logs.push(line),
    });
    try {
      const line = await eventually(() => logs.find((l) => l.startsWith('link to ws://')), 'the failed dial');
      expect(line).to.contain('hung up (socket hang up): if the server speaks TLS, dial it with https://');
    } finally {
      await daemon.close();
    }
  });
});

describe('a certificate renewed on disk is served without a restart (issue 30)', function () {
  this.timeout(60_000);
  let t: TestServer;
  let ca: TestCa;
  let served: TestCertificate;
  const logs: string[] = [];

  after(() => t?.close());
  const tempDir = suiteTempDirs();

  before(async () => {
    ca = await makeTestCa(await tempDir('ats-tls-renew-'));
    served = await ca.issue('server');
    t = await startTestServer({
      config: { agentProviders: 'none', tlsCert: served.certFile, tlsKey: served.keyFile, tlsWatchMs: 20 },
      log: (message) => logs.push(message),
    });
  });

  it('new connections get the renewed pair once both files are written; a key of another certificate keeps the old pair and logs one line', async () => {
    expect(await servedFingerprint(t.server.url)).to.equal(served.fingerprint);
    const renewed = await ca.issue('renewed');
    // Written in one turn of this process's event loop, the server's: no check runs between the two files.
    writeFileSync(served.certFile, renewed.cert);
    writeFileSync(served.keyFile, renewed.key);
    await eventually(
      async () => ((await servedFingerprint(t.server.url)) === renewed.fingerprint ? true : undefined),
      'the renewed certificate',
    );
    expect(logs.filter((line) => line.startsWith('TLS certificate reloaded (the files changed)'))).to.have.length(1);
    expect((await httpsRequest(`${t.server.url}/api/v1/health`, { ca: ca.ca })).status).to.equal(200);

    // A certificate whose key is not the one on disk: the renewed pair stays served.
    const other = await ca.issue('other');
    writeFileSync(served.certFile, other.cert);
    const refusal = await eventually(() => logs.find((line) => line.startsWith('TLS certificate not reloaded')), 'the refusal line');
    expect(refusal).to.contain(
      `--tls-key / ATS_TLS_KEY ${served.keyFile} is not the private key of the certificate in --tls-cert / ATS_TLS_CERT`,
    );
    expect(refusal).to.contain(`still serving CN=localhost, SHA-256 ${renewed.fingerprint}`);
    expect(await servedFingerprint(t.server.url)).to.equal(renewed.fingerprint);

    // Its key arrives: that pair is served, and the bad moment was said once, not at every check.
    writeFileSync(served.keyFile, other.key);
    await eventually(async () => ((await servedFingerprint(t.server.url)) === other.fingerprint ? true : undefined), 'the fixed pair');
    expect(logs.filter((line) => line.startsWith('TLS certificate not reloaded'))).to.have.length(1);
  });

  it('reload() (what SIGHUP calls) reads the files at once', async () => {
    const next = await ca.issue('next');
    expect(await t.server.certificate!.reload('test')).to.equal(true); // the files unchanged: served again
    writeFileSync(served.certFile, next.cert);
    writeFileSync(served.keyFile, next.key);
    expect(await t.server.certificate!.reload('SIGHUP')).to.equal(true);
    expect(await servedFingerprint(t.server.url)).to.equal(next.fingerprint);
    expect(logs).to.include(`TLS certificate reloaded (SIGHUP): now serving ${t.server.certificate!.served().summary}`);
  });
});

describe('TLS settings that cannot be served stop the start, naming the setting (issue 30)', function () {
  this.timeout(30_000);
  const tempDir = suiteTempDirs();

  const startWith = async (config: ConfigInput) => {
    const dataDir = await tempDir('ats-tls-bad-');
    return startServer({
      config: configWith({ port: 0, token: TEST_TOKEN, dataDir, agentProviders: 'none', ...config }),
      log: () => {},
    }).then(
      async (server) => {
        await server.close();
        throw new Error('the server started');
      },
      (error: Error) => error.message,
    );
  };

  it('each case says which setting to change', async () => {
    const dir = await tempDir('ats-tls-files-');
    const ca = await makeTestCa(dir);
    const one = await ca.issue('one');
    const two = await makeSelfSignedCertificate(dir, 'two');
    const missing = path.join(dir, 'missing.crt');
    const cases: [string, ConfigInput, string][] = [
      ['a cert without a key', { tlsCert: one.certFile }, '--tls-cert / ATS_TLS_CERT is set but --tls-key / ATS_TLS_KEY is not'],
      ['a key without a cert', { tlsKey: one.keyFile }, '--tls-key / ATS_TLS_KEY is set but --tls-cert / ATS_TLS_CERT is not'],
      ['a missing cert file', { tlsCert: missing, tlsKey: one.keyFile }, `cannot read --tls-cert / ATS_TLS_CERT ${missing}: ENOENT`],
      [
        'a key file that holds a certificate',
        { tlsCert: one.certFile, tlsKey: one.certFile },
        `--tls-key / ATS_TLS_KEY ${one.certFile} holds no readable PEM private key`,
      ],
      [
        'the key of another certificate',
        { tlsCert: one.certFile, tlsKey: two.keyFile },
        `--tls-key / ATS_TLS_KEY ${two.keyFile} is not the private key of the certificate in --tls-cert / ATS_TLS_CERT ${one.certFile}`,
      ],
      ['a missing CA file', { tlsCa: missing }, `cannot read the CA file ${missing} (--tls-ca / ATS_TLS_CA): ENOENT`],
      ['a CA file that is a key', { tlsCa: one.keyFile }, `the CA file ${one.keyFile} (--tls-ca / ATS_TLS_CA) holds no PEM certificate`],
    ];
    for (const [what, config, message] of cases) expect(await startWith(config), what).to.contain(message);
  });
});
