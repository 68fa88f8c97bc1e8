import { expect } from 'chai';
import { HOST_DAEMON_PROTOCOL_VERSION } from '../../src/protocol/protocolVersion';
import { DaemonConfigError, loadDaemonConfig } from '../../src/config/daemonConfig';

const TOKEN = 'token-0123456789abcdef';

describe('link: settings of npm run daemon (flags and ATS_DAEMON_* env vars)', () => {
  it('reads the flags of the issue, with documented defaults for the rest', () => {
    const config = loadDaemonConfig(
      ['--server', 'http://10.0.0.5:8787', '--token', TOKEN, '--name', 'build-box-1', '--data-dir', '/tmp/d'],
      {},
    );
    expect(config).to.include({
      server: 'http://10.0.0.5:8787',
      token: TOKEN,
      name: 'build-box-1',
      dataDir: '/tmp/d',
      reconnectInitialMs: 250,
      reconnectMaxMs: 10_000,
    });
    expect(config.heartbeatMs, 'unset: the server names it in its hello answer').to.equal(undefined);
    expect(config.protocolVersion).to.equal(HOST_DAEMON_PROTOCOL_VERSION);
    expect(config.agentProviders).to.deep.equal(['pi']);
  });

  it('takes ATS_DAEMON_* env vars, and a flag wins over its env var', () => {
    const config = loadDaemonConfig(['--heartbeat-ms=500'], {
      ATS_DAEMON_SERVER: 'ws://h:1',
      ATS_DAEMON_TOKEN: TOKEN,
      ATS_DAEMON_HEARTBEAT_MS: '9000',
      ATS_DAEMON_AGENT_PROVIDERS: 'none',
    });
    expect(config).to.include({ server: 'ws://h:1', heartbeatMs: 500 });
    expect(config.agentProviders).to.deep.equal([]);
  });

  const refusals: [args: string[], message: RegExp][] = [
    [['--token', TOKEN], /missing --server \/ ATS_DAEMON_SERVER/],
    [['--server', 'http://h:1', '--token', 'short'], /invalid --token \/ ATS_DAEMON_TOKEN/],
    [['--server', 'ftp://h:1', '--token', TOKEN], /invalid --server/],
    [['--server', 'http://h:1', '--token', TOKEN, '--heartbeat-ms', '0'], /invalid --heartbeat-ms/],
    [['--server', 'http://h:1', '--token', TOKEN, '--port', '1'], /unknown option --port/],
  ];
  for (const [args, message] of refusals) {
    it(`refuses ${args.join(' ')} with a message naming the setting`, () => {
      expect(() => loadDaemonConfig(args, {})).to.throw(DaemonConfigError, message);
    });
  }
});
