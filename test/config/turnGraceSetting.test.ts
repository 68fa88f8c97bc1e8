import { expect } from 'chai';
import { DaemonConfigError, loadDaemonConfig } from '../../src/config/daemonConfig';
import { ConfigError, loadConfig } from '../../src/config/serverConfig';

const daemonBase = ['--server', 'http://h:1', '--token', 'token-0123456789abcdef'];

describe('turnGraceMs: how long a stop or a failed settle waits for the run (issue 12)', () => {
  it('defaults to 5 s on the server and the daemon', () => {
    expect(loadConfig([], {}).turnGraceMs).to.equal(5_000);
    expect(loadDaemonConfig(daemonBase, {}).turnGraceMs).to.equal(5_000);
  });

  it('is read from --turn-grace-ms or ATS_TURN_GRACE_MS / ATS_DAEMON_TURN_GRACE_MS', () => {
    expect(loadConfig(['--turn-grace-ms', '250'], {}).turnGraceMs).to.equal(250);
    expect(loadConfig([], { ATS_TURN_GRACE_MS: '750' }).turnGraceMs).to.equal(750);
    expect(loadDaemonConfig([...daemonBase, '--turn-grace-ms=300'], {}).turnGraceMs).to.equal(300);
    expect(loadDaemonConfig(daemonBase, { ATS_DAEMON_TURN_GRACE_MS: '900' }).turnGraceMs).to.equal(900);
  });

  it('refuses a grace that is not a positive integer, naming the setting', () => {
    expect(() => loadConfig(['--turn-grace-ms', '0'], {})).to.throw(ConfigError, /turn-grace-ms/);
    expect(() => loadDaemonConfig([...daemonBase, '--turn-grace-ms', 'soon'], {})).to.throw(DaemonConfigError, /turn-grace-ms/);
  });
});
