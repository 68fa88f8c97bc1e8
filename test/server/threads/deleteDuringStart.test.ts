import path from 'node:path';
import { expect } from 'chai';
import { createProviders } from '../../../src/daemon/providerFactories';
import { startTestServer, type TestServer } from '../../helpers/server/harness';
import { suiteTempDirs } from '../../helpers/temp/suiteDirs';

const FAULTY_AGENT = path.join(__dirname, '..', '..', 'helpers', 'fakes', 'faultyAcpAgent.mjs');

/**
 * A prompt owns its thread until the host took it (threadChanges.ts), and an agent that never answers
 * `initialize` holds that answer for half the command timeout. A delete must not wait it out (issue 37: stop
 * and delete answer within a second): with a minute-long timeout, a delete that queued behind the prompt
 * would outlast this suite's timeout.
 */
describe('thread delete during an agent start that never answers: not held up by the prompt being taken (issue 37)', function () {
  this.timeout(20_000);
  let t: TestServer;
  let projectId: string;
  const tempDir = suiteTempDirs();

  before(async () => {
    const root = await tempDir('ats-delete-start-');
    const declared = { 'no-init': { command: process.execPath, args: [FAULTY_AGENT, 'no-init'], env: {} } };
    t = await startTestServer({
      config: { hostCommandTimeoutMs: 120_000, agentStartTimeoutMs: 120_000 },
      providers: createProviders(['no-init'], () => undefined, 'none', { ...process.env, ATS_ACP_AGENTS: JSON.stringify(declared) }),
    });
    const project = await t.json('/projects', {
      body: { name: 'slow', source: { type: 'local_path', path: root, hostId: t.server.hostId } },
    });
    projectId = project.id;
  });
  after(async () => t?.close());

  it('answers 204 while the prompt still waits for the agent, and the prompt then fails', async () => {
    const thread = await t.json('/threads', { body: { projectId, provider: 'no-init', model: 'no-init/default', title: 'slow' } });
    const prompt = t.api(`/threads/${thread.id}/messages`, { body: { prompt: 'say hi' } });
    // The prompt is being taken once the host reports its agent starting.
    for (let agent = ''; agent !== 'starting'; await new Promise((resolve) => setTimeout(resolve, 20)))
      agent = (await t.json(`/threads/${thread.id}`)).agent;
    const deleted = await t.api(`/threads/${thread.id}`, { method: 'DELETE' });
    expect(deleted.status, await deleted.text()).to.equal(204);
    expect((await prompt).status).to.not.equal(202);
    expect((await t.api(`/threads/${thread.id}`)).status).to.equal(404);
  });
});
