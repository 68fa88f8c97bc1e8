import { expect } from 'chai';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { startTestServer, TEST_TOKEN, type TestServer } from '../../helpers/server/harness';
import { suiteTempDirs } from '../../helpers/temp/suiteDirs';
import { daemonRunner, enrollmentCode, hostListed } from './daemons';

/** Every file under `dir`, as text: where a secret must not be. */
async function allText(dir: string): Promise<string> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
  return (await Promise.all(files.map((file) => readFile(file, 'utf8').catch(() => '')))).join('\n');
}

describe('hosts: a daemon enrolls with a one-time code and keeps a credential of its own (issue 30)', function () {
  this.timeout(180_000);
  let t: TestServer;
  let expiring: TestServer;
  const logs: string[] = [];
  const daemons = daemonRunner(() => t.server.url);
  const expiringDaemons = daemonRunner(() => expiring.server.url);

  before(async () => {
    t = await startTestServer({ config: { agentProviders: 'none' }, log: (message) => logs.push(message) });
    expiring = await startTestServer({ config: { agentProviders: 'none', enrollmentTtlMs: 1 } });
  });
  after(async () => {
    await daemons.stopAll();
    await expiringDaemons.stopAll();
    await t?.close();
    await expiring?.close();
  });
  const tempDir = suiteTempDirs();

  it('npm run daemon -- --enroll CODE attaches, keeps its credential 0600, and a restart with no flags reconnects with it', async () => {
    const before = Date.now();
    const { code, expiresAt } = await enrollmentCode(t);
    expect(expiresAt).to.be.within(before + 15 * 60_000 - 1000, Date.now() + 15 * 60_000);
    const dataDir = await tempDir('ats-enroll-');
    const first = await daemons.run(['--enroll', code, '--data-dir', dataDir], 'npm');
    expect(first.hostId, first.stderr()).to.match(/^host_/);
    await hostListed(t, first.hostId, true);

    const file = path.join(dataDir, 'credential');
    expect((await stat(file)).mode & 0o777).to.equal(0o600);
    const credential = (await readFile(file, 'utf8')).trim();
    expect(credential).to.match(/^atshost\.host_/);
    expect(credential).to.not.include(TEST_TOKEN);
    // Only hashes on the server: neither secret is in its files or its log, nor in the daemon's output.
    const serverFiles = await allText(t.dataDir);
    for (const secret of [code, credential]) {
      expect(serverFiles).to.not.include(secret);
      expect(logs.join('\n')).to.not.include(secret);
      expect(first.stderr()).to.not.include(secret);
    }
    expect(first.stderr()).to.not.match(/deprecated/);

    await first.kill('SIGTERM');
    await hostListed(t, first.hostId, false);
    const again = await daemons.run(['--data-dir', dataDir]);
    expect(again.hostId).to.equal(first.hostId);
    await hostListed(t, first.hostId, true);
    expect(again.stderr()).to.not.match(/deprecated|enroll/);
    await again.kill('SIGTERM');
  });

  it('refuses a code used once already: the second daemon exits saying so and attaches nothing', async () => {
    const { code } = await enrollmentCode(t);
    const first = await daemons.run(['--enroll', code, '--data-dir', await tempDir('ats-enroll-once-')]);
    await hostListed(t, first.hostId, true);
    const hostsBefore = (await t.json('/hosts')).length;
    const secondDir = await tempDir('ats-enroll-twice-');
    const second = await daemons.run(['--enroll', code, '--data-dir', secondDir]);
    expect(await second.exited).to.equal(1);
    expect(second.hostId).to.equal('');
    expect(second.stderr()).to.match(
      /enrollment refused: .* 401 enrollment_code_invalid: this enrollment code is unknown or was used already/,
    );
    expect(await readdir(secondDir)).to.not.include('credential');
    expect((await t.json('/hosts')).length).to.equal(hostsBefore);
    await first.kill('SIGTERM');
  });

  it('refuses an expired code (ATS_ENROLLMENT_TTL_MS), over the API and from the daemon', async () => {
    const { code, expiresAt } = await enrollmentCode(expiring);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiresAt - Date.now()) + 5));
    const daemon = await expiringDaemons.run(['--enroll', code, '--data-dir', await tempDir('ats-enroll-expired-')]);
    expect(await daemon.exited).to.equal(1);
    expect(daemon.stderr()).to.match(/401 enrollment_code_expired: this enrollment code expired at .*ATS_ENROLLMENT_TTL_MS/);
    // Taken with its refusal: the same code is unknown from then on.
    const again = await expiring.api('/hosts/enroll', { auth: false, body: { code, hostId: 'host_abc' } });
    expect(again.status).to.equal(401);
    expect((await again.json()).code).to.equal('enrollment_code_invalid');
  });

  it('makes codes only for the server token or a signed-in page', async () => {
    const anonymous = await t.api('/hosts/enrollments', { method: 'POST', auth: false });
    expect(anonymous.status).to.equal(401);
    await anonymous.body?.cancel();
  });

  it('--token still attaches for this release, with a warning on stderr naming the command to run instead', async () => {
    const daemon = await daemons.run(['--token', TEST_TOKEN, '--data-dir', await tempDir('ats-enroll-token-')]);
    await hostListed(t, daemon.hostId, true);
    expect(daemon.stderr()).to.match(/--token \(ATS_DAEMON_TOKEN\) is deprecated/);
    expect(daemon.stderr()).to.include(`npm run daemon -- --server ${t.server.url} --enroll CODE`);
    await daemon.kill('SIGTERM');
  });

  it('a daemon with no credential, no --enroll and no --token exits saying how to enroll', async () => {
    const daemon = await daemons.run(['--data-dir', await tempDir('ats-enroll-none-')]);
    expect(await daemon.exited).to.equal(1);
    expect(daemon.stderr()).to.match(/this host is not enrolled .*make an enrollment code .*--enroll CODE/);
  });
});
