import path from 'node:path';
import { expect } from 'chai';
import { BUILT_IN_ACP_AGENTS, createAcpProvider } from '../../../src/daemon/providers/acp';
import { startTestServer, type TestServer } from '../../helpers/server/harness';
import { completedTurns, eventsUntil } from '../../helpers/server/threadRows';
import { suiteTempDirs } from '../../helpers/temp/suiteDirs';

const IN_REPO_AGENT = path.join(__dirname, '..', '..', 'helpers', 'agents', 'inRepoAcpAgent.mjs');

describe('ACP agents in a host’s model catalog (GET /hosts/:id/models)', () => {
  let t: TestServer;
  before(async () => {
    const log = () => undefined;
    t = await startTestServer({
      providers: [
        // Installed or not, each agent has its entry, so a picker can offer it; `available` says whether it is found.
        createAcpProvider({ name: 'claude', spec: BUILT_IN_ACP_AGENTS.claude, env: { PATH: '/nonexistent' }, binDirs: [], log }),
        createAcpProvider({
          name: 'mine',
          spec: { command: process.execPath, args: [IN_REPO_AGENT], env: { IN_REPO_AGENT_MODELS: '1' } },
          log,
        }),
      ],
    });
  });
  after(() => t.close());

  it('lists one <agent>/default entry per agent, available when its command is found', async () => {
    const { models, errors } = await t.json(`/hosts/${t.server.hostId}/models`);
    expect(errors).to.deep.equal([]);
    // The models this host can run come first (issue 29: the page offers those before the rest).
    expect(models).to.deep.equal([
      { provider: 'mine', model: 'mine/default', name: "mine (the agent's own default model)", available: true },
      { provider: 'claude', model: 'claude/default', name: "claude (the agent's own default model)", available: false },
    ]);
    expect((await t.json(`/hosts/${t.server.hostId}/models?provider=mine`)).models).to.have.length(1);
  });

  const tempDir = suiteTempDirs();
  it('adds the models an agent offered in the last session it opened, so a picker can name them', async () => {
    const folder = await tempDir('ats-acp-models-');
    const project = await t.json('/projects', {
      body: { name: 'models', source: { type: 'local_path', path: folder, hostId: t.server.hostId } },
    });
    const thread = await t.json('/threads', { body: { projectId: project.id, provider: 'mine', model: 'mine/default', title: 'models' } });
    // An agent starts when a prompt needs it: its session, and the models it offers, come with the first one.
    await t.json(`/threads/${thread.id}/messages`, { body: { prompt: 'say hi' } });
    await eventsUntil(t, thread.id, completedTurns(1));
    const { models } = await t.json(`/hosts/${t.server.hostId}/models?provider=mine`);
    expect(models.map((model: { model: string; name: string }) => [model.model, model.name])).to.deep.equal([
      ['mine/default', "mine (the agent's own default model)"],
      ['mine/small', 'In-repo small'],
      ['mine/large', 'In-repo large'],
    ]);
  });
});
