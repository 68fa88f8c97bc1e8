import { expect } from 'chai';
import { DaemonConfigError, loadDaemonConfig } from '../../src/config/daemonConfig';
import { ConfigError, loadConfig } from '../../src/config/serverConfig';

const daemonBase = ['--server', 'http://h:1', '--token', 'token-0123456789abcdef'];

describe('agentStartTimeoutMs: how long an agent start may take (issue 37)', () => {
  it('defaults to 60 s on the server and the daemon', () => {
    expect(loadConfig([], {}).agentStartTimeoutMs).to.equal(60_000);
    expect(loadDaemonConfig(daemonBase, {}).agentStartTimeoutMs).to.equal(60_000);
  });

  it('is read from --agent-start-timeout-ms or ATS_AGENT_START_TIMEOUT_MS / ATS_DAEMON_AGENT_START_TIMEOUT_MS', () => {
    expect(loadConfig(['--agent-start-timeout-ms', '2500'], {}).agentStartTimeoutMs).to.equal(2_500);
    expect(loadConfig([], { ATS_AGENT_START_TIMEOUT_MS: '90000' }).agentStartTimeoutMs).to.equal(90_000);
    expect(loadDaemonConfig([...daemonBase, '--agent-start-timeout-ms=3000'], {}).agentStartTimeoutMs).to.equal(3_000);
    expect(loadDaemonConfig(daemonBase, { ATS_DAEMON_AGENT_START_TIMEOUT_MS: '120000' }).agentStartTimeoutMs).to.equal(120_000);
  });

  it('refuses a timeout that is not a positive integer, naming the setting', () => {
    expect(() => loadConfig(['--agent-start-timeout-ms', '0'], {})).to.throw(ConfigError, /agent-start-timeout-ms/);
    expect(() => loadDaemonConfig([...daemonBase, '--agent-start-timeout-ms', 'soon'], {})).to.throw(
      DaemonConfigError,
      /agent-start-timeout-ms/,
    );
  });
});
