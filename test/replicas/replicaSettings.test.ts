import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../src/config/serverConfig';
import { DaemonConfigError, loadDaemonConfig } from '../../src/config/daemonConfig';
import { linkUrls } from '../../src/daemon/remote/daemonLinkClient';

describe('replica settings', () => {
  it('reads ATS_DATABASE_URL and ATS_EMBEDDED_HOST=0; nedb and an embedded host stay the default', () => {
    const config = loadConfig([], { ATS_DATABASE_URL: 'postgres://app@db:5432/ats', ATS_EMBEDDED_HOST: '0' });
    expect(config).to.include({ databaseUrl: 'postgres://app@db:5432/ats', embeddedHost: false });
    const plain = loadConfig([], {});
    expect(plain.databaseUrl).to.equal(undefined);
    expect(plain.embeddedHost).to.equal(true);
    expect(() => loadConfig([], { ATS_DATABASE_URL: 'mysql://db/ats' })).to.throw(ConfigError, /--database-url \/ ATS_DATABASE_URL/);
    expect(() => loadConfig(['--embedded-host', 'maybe'], {})).to.throw(ConfigError, /--embedded-host/);
  });

  it('takes a comma list of servers for the daemon, in order, and refuses a bad entry', () => {
    const config = loadDaemonConfig(['--server', 'http://a:8787, http://b:8788', '--token', 't'.repeat(16)], {});
    expect(linkUrls(config.server)).to.deep.equal(['ws://a:8787/api/v1/daemon', 'ws://b:8788/api/v1/daemon']);
    expect(() => loadDaemonConfig(['--server', 'http://a:8787,nope', '--token', 't'.repeat(16)], {})).to.throw(
      DaemonConfigError,
      /--server/,
    );
  });
});
