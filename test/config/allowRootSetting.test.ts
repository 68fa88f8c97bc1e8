import { expect } from 'chai';
import path from 'node:path';
import { loadDaemonConfig } from '../../src/config/daemonConfig';
import { loadConfig } from '../../src/config/serverConfig';

const DAEMON = ['--server', 'http://h:1', '--token', 'token-0123456789abcdef'];

describe('config: the folders a host allows (--allow-root, ATS_ALLOW_ROOTS) (issue 30)', () => {
  it('unset by default on both: every folder, as before', () => {
    expect(loadDaemonConfig(DAEMON, {}).allowRoot).to.equal(undefined);
    expect(loadConfig([], {}).allowRoots).to.equal(undefined);
  });

  it('--allow-root is repeatable, and each folder is made absolute', () => {
    const config = loadDaemonConfig([...DAEMON, '--allow-root', '/srv/repos', '--allow-root=work'], {});
    expect(config.allowRoot).to.deep.equal(['/srv/repos', path.resolve('work')]);
  });

  it('the env vars take a path-delimited list; flags replace the env var', () => {
    const list = ['/a', '/b'].join(path.delimiter);
    expect(loadDaemonConfig(DAEMON, { ATS_DAEMON_ALLOW_ROOT: list }).allowRoot).to.deep.equal(['/a', '/b']);
    expect(loadDaemonConfig([...DAEMON, '--allow-root', '/c'], { ATS_DAEMON_ALLOW_ROOT: list }).allowRoot).to.deep.equal(['/c']);
    expect(loadConfig([], { ATS_ALLOW_ROOTS: list }).allowRoots).to.deep.equal(['/a', '/b']);
  });

  it('a list of no folder is refused, naming the setting', () => {
    expect(() => loadConfig([], { ATS_ALLOW_ROOTS: path.delimiter })).to.throw(/invalid --allow-roots \/ ATS_ALLOW_ROOTS/);
    expect(() => loadDaemonConfig([...DAEMON, '--allow-root', ' '], {})).to.throw(/invalid --allow-root \/ ATS_DAEMON_ALLOW_ROOT/);
  });

  it('other flags still take their last value', () => {
    expect(loadDaemonConfig([...DAEMON, '--name', 'a', '--name', 'b'], {}).name).to.equal('b');
  });
});
