import { expect } from 'chai';
import { chmod, mkdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { startDaemonProcess, type DaemonProcess } from '../../helpers/hosts/daemonProcess';
import { eventually } from '../../helpers/server/eventually';
import { startTestServer, TEST_TOKEN, type TestServer } from '../../helpers/server/harness';
import { suiteTempDirs } from '../../helpers/temp/suiteDirs';
import { httpsRequest } from '../../helpers/tls/httpsClient';
import { makeTestCa, type TestCa } from '../../helpers/tls/testCertificates';

const modeOf = async (file: string) => (await stat(file)).mode & 0o777;

describe('hosts: a daemon enrolls over https with --ca, and keeps its data dir to its own user (issue 37)', function () {
  this.timeout(120_000);
  let t: TestServer;
  let ca: TestCa;
  const running: DaemonProcess[] = [];
  const api = (pathname: string, init: { method?: string; body?: unknown; auth?: boolean } = {}) =>
    httpsRequest(`${t.server.url}/api/v1${pathname}`, {
      ca: ca.ca,
      headers: init.auth === false ? {} : { authorization: `Bearer ${TEST_TOKEN}` },
      ...(init.method ? { method: init.method } : {}),
      ...(init.body === undefined ? {} : { body: init.body }),
    });
  const newCode = async () => JSON.parse((await api('/hosts/enrollments', { method: 'POST', body: {} })).text).code as string;
  const daemon = async (args: string[]) => {
    const started = await startDaemonProcess(['--server', t.server.url, '--agent-providers', 'none', ...args], { via: 'node' });
    running.push(started);
    return started;
  };

  before(async () => {
    ca = await makeTestCa(await tempDir('ats-enroll-tls-ca-'));
    const served = await ca.issue('server');
    t = await startTestServer({ config: { agentProviders: 'none', tlsCert: served.certFile, tlsKey: served.keyFile } });
  });
  after(async () => {
    await Promise.all(running.map((started) => started.kill('SIGTERM')));
    await t?.close();
  });
  const tempDir = suiteTempDirs();

  it('--enroll CODE --ca FILE trades the code over https and attaches over wss', async () => {
    const dataDir = path.join(await tempDir('ats-enroll-tls-'), 'data');
    const enrolled = await daemon(['--enroll', await newCode(), '--ca', ca.caFile, '--data-dir', dataDir]);
    expect(enrolled.hostId, enrolled.stderr()).to.match(/^host_/);
    await eventually(
      async () => {
        const hosts = JSON.parse((await api('/hosts')).text) as { id: string; online: boolean }[];
        return hosts.some((host) => host.id === enrolled.hostId && host.online) ? true : undefined;
      },
      'the enrolled host online over wss',
      30_000,
    );
    expect(enrolled.stderr()).to.not.match(/deprecated|self-signed|not trusted/);

    // A data dir it made: this user's only, and every file in it.
    expect(await modeOf(dataDir)).to.equal(0o700);
    for (const name of ['host.json', 'LOCK', 'link-outbox.jsonl', 'credential'])
      expect(await modeOf(path.join(dataDir, name)), name).to.equal(0o600);
  });

  it('without --ca the enrollment names the untrusted certificate and --ca, and the code stays unused', async () => {
    const code = await newCode();
    const refused = await daemon(['--enroll', code, '--data-dir', await tempDir('ats-enroll-tls-untrusted-')]);
    expect(await refused.exited).to.equal(1);
    expect(refused.stderr()).to.match(/enrollment failed, no server took the code: .*is not trusted/);
    expect(refused.stderr()).to.contain('--ca FILE (ATS_DAEMON_CA)');
    const again = await api('/hosts/enroll', { auth: false, body: { code, hostId: 'host_tlsunused' } });
    expect(again.status, again.text).to.equal(201);
  });

  it('a data dir others could read, from an earlier version, is made 0700 and its files 0600 at start', async () => {
    const dataDir = await tempDir('ats-enroll-tls-loose-');
    await chmod(dataDir, 0o755);
    await mkdir(dataDir, { recursive: true });
    await writeFile(path.join(dataDir, 'host.json'), JSON.stringify({ hostId: 'host_tlsloose', name: 'loose' }) + '\n', { mode: 0o644 });
    const started = await daemon(['--enroll', await newCode(), '--ca', ca.caFile, '--data-dir', dataDir]);
    expect(started.hostId, started.stderr()).to.equal('host_tlsloose');
    expect(started.stderr()).to.contain(`${dataDir} could be read by other users: made it 0700`);
    expect(await modeOf(dataDir)).to.equal(0o700);
    for (const name of ['host.json', 'LOCK', 'link-outbox.jsonl', 'credential'])
      expect(await modeOf(path.join(dataDir, name)), name).to.equal(0o600);
  });
});
