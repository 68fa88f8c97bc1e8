import { expect } from 'chai';
import { chmod, stat, writeFile } from 'node:fs/promises';
import { credentialFileOf, loadHostCredential, saveHostCredential } from '../../../src/daemon/remote/hostCredentialFile';
import { enrollUrl } from '../../../src/daemon/remote/enrollHost';
import { suiteTempDirs } from '../../helpers/temp/suiteDirs';

describe('daemon: the host credential file (issue 30)', () => {
  const tempDir = suiteTempDirs();

  it('is written 0600 and read back; none yet reads as undefined', async () => {
    const dataDir = await tempDir('ats-credential-');
    expect(await loadHostCredential(dataDir, () => {})).to.equal(undefined);
    await saveHostCredential(dataDir, 'atshost.host_a.secret');
    expect((await stat(credentialFileOf(dataDir))).mode & 0o777).to.equal(0o600);
    expect(await loadHostCredential(dataDir, () => {})).to.equal('atshost.host_a.secret');
  });

  it('made readable by others (a copy, a chmod) is made 0600 again at start, and the log says so', async () => {
    const dataDir = await tempDir('ats-credential-open-');
    await writeFile(credentialFileOf(dataDir), 'atshost.host_a.secret\n');
    await chmod(credentialFileOf(dataDir), 0o644);
    const logs: string[] = [];
    expect(await loadHostCredential(dataDir, (line) => logs.push(line))).to.equal('atshost.host_a.secret');
    expect((await stat(credentialFileOf(dataDir))).mode & 0o777).to.equal(0o600);
    expect(logs.join('\n')).to.match(/could be read by other users: made it 0600/);
    expect(logs.join('\n')).to.not.include('secret');
  });

  it('enrolls at the server base of any link URL it is given', () => {
    for (const [server, expected] of [
      ['http://h:8787', 'http://h:8787/api/v1/hosts/enroll'],
      ['ws://h:8787/api/v1/daemon', 'http://h:8787/api/v1/hosts/enroll'],
      ['wss://h/base/', 'https://h/base/api/v1/hosts/enroll'],
    ])
      expect(enrollUrl(server!)).to.equal(expected);
  });
});
