import { expect } from 'chai';
import { writeFile } from 'node:fs/promises';
import { commandLineOf, groupMembers } from '../helpers/agents/processTree';
import { eventually } from '../helpers/server/eventually';
import { npmStart, type StartedProcess } from '../helpers/server/process';
import { suiteTempDirs } from '../helpers/temp/suiteDirs';
import { httpsRequest, servedFingerprint } from '../helpers/tls/httpsClient';
import { makeTestCa } from '../helpers/tls/testCertificates';

describe('npm start with ATS_TLS_CERT / ATS_TLS_KEY (issue 30)', function () {
  this.timeout(120_000); // npm start compiles the server first when a source is newer than its build
  let running: StartedProcess | undefined;
  after(() => running?.stop());
  const tempDir = suiteTempDirs();

  it('prints https URLs, serves the API over TLS, and SIGHUP serves a certificate renewed on disk', async () => {
    const ca = await makeTestCa(await tempDir('ats-start-tls-'));
    const first = await ca.issue('server');
    const token = 'tls-token-0123456789abcdef';
    running = await npmStart(['--port', '0', '--data-dir', await tempDir('ats-start-tls-data-')], {
      ATS_TOKEN: token,
      ATS_AGENT_PROVIDERS: 'none',
      ATS_TLS_CERT: first.certFile,
      ATS_TLS_KEY: first.keyFile,
      ATS_TLS_WATCH_MS: '0', // only SIGHUP reloads: the renewal below is SIGHUP's doing
    });
    expect(running.url).to.match(/^https:\/\/127\.0\.0\.1:\d+$/);
    const open = await eventually(() => running!.lines.find((line) => line.startsWith('open ')), 'the sign-in URL line');
    expect(open).to.equal(`open ${running.url}/#token=${token}`);
    const hosts = await httpsRequest(`${running.url}/api/v1/hosts`, { ca: ca.ca, headers: { authorization: `Bearer ${token}` } });
    expect(hosts.status).to.equal(200);
    expect(await servedFingerprint(running.url)).to.equal(first.fingerprint);

    const renewed = await ca.issue('renewed');
    await writeFile(first.certFile, renewed.cert);
    await writeFile(first.keyFile, renewed.key);
    // npm passes no signal on to its script, so SIGHUP goes to the server's own process, as `kill -HUP` would.
    const server = groupMembers(running.child.pid!).find((pid) => /^\S*node \S*src\/cli\/start\.js/.test(commandLineOf(pid)));
    expect(server, 'the node process of npm start').to.be.a('number');
    process.kill(server!, 'SIGHUP');
    await eventually(
      async () => ((await servedFingerprint(running!.url)) === renewed.fingerprint ? true : undefined),
      'the renewed certificate',
    );
    expect((await httpsRequest(`${running.url}/api/v1/health`, { ca: ca.ca })).status).to.equal(200); // still up

    await running.stop();
    running = undefined;
  });
});
