import { expect } from 'chai';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../src/config/serverConfig';

describe('server config: flags and ATS_* env vars', () => {
  it('has loopback, port 8787, ./.data and the pi agent by default', () => {
    const config = loadConfig([], {});
    expect(config).to.deep.include({ host: '127.0.0.1', port: 8787, dataDir: path.resolve('.data'), agentProviders: ['pi'] });
    expect(config.token).to.equal(undefined);
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
