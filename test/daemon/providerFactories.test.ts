import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../src/config/serverConfig';
import { AGENT_PROVIDER_IDS, createProviders } from '../../src/daemon/providerFactories';
import { DaemonConfigError, loadDaemonConfig } from '../../src/config/daemonConfig';

const daemonArgs = (providers: string) => [
  '--server',
  'http://127.0.0.1:8787',
  '--token',
  'a-token-of-16-chars',
  '--agent-providers',
  providers,
];

/** Adding an agent is its folder plus one line in PROVIDER_FACTORIES: nothing else may list the ids. */
describe('agent provider registry: one line names an agent for the server, the daemon and the factories', () => {
  it('both configs accept every registered id, alone and all together', () => {
    for (const id of AGENT_PROVIDER_IDS) {
      expect(loadConfig([], { ATS_AGENT_PROVIDERS: id }).agentProviders, id).to.deep.equal([id]);
      expect(loadDaemonConfig(daemonArgs(id), {}).agentProviders, id).to.deep.equal([id]);
    }
    const all = AGENT_PROVIDER_IDS.join(',');
    expect(loadConfig(['--agent-providers', all], {}).agentProviders).to.deep.equal(AGENT_PROVIDER_IDS);
    expect(loadDaemonConfig(daemonArgs(all), {}).agentProviders).to.deep.equal(AGENT_PROVIDER_IDS);
  });

  it('both configs refuse an id the registry does not have', () => {
    expect(() => loadConfig([], { ATS_AGENT_PROVIDERS: 'not-registered' })).to.throw(ConfigError, /--agent-providers/);
    expect(() => loadDaemonConfig(daemonArgs('not-registered'), {})).to.throw(DaemonConfigError, /--agent-providers/);
  });

  it('createProviders builds each registered id under that id, and refuses others naming the known ones', () => {
    expect(createProviders(AGENT_PROVIDER_IDS, () => undefined).map((provider) => provider.id)).to.deep.equal(AGENT_PROVIDER_IDS);
    expect(() => createProviders(['constructor'], () => undefined)).to.throw(
      `unknown agent provider "constructor" (known: ${AGENT_PROVIDER_IDS.join(', ')})`,
    );
  });
});
