import { expect } from 'chai';
import path from 'node:path';
import { defaultDataDir } from '../../src/config/defaultDataDir';
import { ConfigError, loadConfig } from '../../src/config/serverConfig';

describe('server config: flags and ATS_* env vars', () => {
  it('has loopback, port 8787, the data dir outside any project folder and the pi agent by default (issue 29)', () => {
    const config = loadConfig([], {});
    expect(config).to.deep.include({ host: '127.0.0.1', port: 8787, dataDir: defaultDataDir(), agentProviders: ['pi'] });
    expect(config.dataDir).not.to.equal(path.resolve('.data'));
    expect(config.token).to.equal(undefined);
  });

  it('keeps its data under $XDG_DATA_HOME, else ~/.local/share, in agent-thread-service (issue 29)', () => {
    expect(defaultDataDir({ XDG_DATA_HOME: '/srv/data' }, '/home/me')).to.equal('/srv/data/agent-thread-service');
    expect(defaultDataDir({}, '/home/me')).to.equal('/home/me/.local/share/agent-thread-service');
    expect(defaultDataDir({ XDG_DATA_HOME: 'relative' }, '/home/me')).to.equal('/home/me/.local/share/agent-thread-service');
    expect(loadConfig([], { ATS_DATA_DIR: './here' }).dataDir).to.equal(path.resolve('here')); // ATS_DATA_DIR still wins
  });

  it('reads ATS_* env vars and lets flags win over them', () => {
    const env = { ATS_PORT: '0', ATS_DATA_DIR: '/tmp/a', ATS_MAX_BODY_BYTES: '2048', ATS_AGENT_PROVIDERS: 'none' };
    const config = loadConfig(['--data-dir', '/tmp/b', '--host=0.0.0.0'], env);
    expect(config).to.deep.include({ port: 0, dataDir: '/tmp/b', host: '0.0.0.0', maxBodyBytes: 2048, agentProviders: [] });
  });

  it("runs each thread's agent in a process of its own unless ATS_AGENT_ISOLATION=none", () => {
    expect(loadConfig([], {}).agentIsolation).to.equal('process');
    expect(loadConfig([], { ATS_AGENT_ISOLATION: 'none' }).agentIsolation).to.equal('none');
  });

  const cases: [string[], NodeJS.ProcessEnv, RegExp][] = [
    [['--port', 'many'], {}, /--port/],
    [[], { ATS_PORT: '70000' }, /ATS_PORT/],
    [['--token', 'short'], {}, /--token/],
    [['--nope', '1'], {}, /unknown option --nope/],
    [['--port'], {}, /needs a value/],
    [[], { ATS_AGENT_PROVIDERS: 'not-an-agent' }, /--agent-providers/],
    [[], { ATS_AGENT_ISOLATION: 'thread' }, /--agent-isolation \/ ATS_AGENT_ISOLATION/],
  ];
  for (const [argv, env, message] of cases) {
    it(`refuses ${JSON.stringify(argv)} ${JSON.stringify(env)} naming the setting`, () => {
      expect(() => loadConfig(argv, env)).to.throw(ConfigError, message);
    });
  }
});
