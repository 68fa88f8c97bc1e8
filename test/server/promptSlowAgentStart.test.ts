import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';
import { createAcpProvider } from '../../src/daemon/providers/acp';
import { startTestServer, type TestServer } from '../helpers/server/harness';
import { completedTurns, completions, eventsUntil } from '../helpers/server/threadRows';
import { suiteTempDirs } from '../helpers/temp/suiteDirs';

const IN_REPO_AGENT = path.join(__dirname, '..', 'helpers', 'agents', 'inRepoAcpAgent.mjs');
/** Far below the time the agents below take to start: they start only when the test opens their gate. */
const HOST_COMMAND_TIMEOUT_MS = 1_000;

/**
 * A prompt on a stopped agent does not depend on how long the agent takes to start (Gemini CLI takes 2.5–13 s,
 * more on a busy host): the host answers once the prompt is taken, before the agent is up, so the client gets
 * 202 rather than 504 when the start outlasts the server→host command timeout, and the start goes on. A start
 * that then fails is the prompt's failed turn, as a start that fails at once is.
 */
describe('a prompt on an agent slower to start than the host command timeout', function () {
  this.timeout(60_000);
  let t: TestServer;
  let root: string;
  let gate: string;
  const tempDir = suiteTempDirs();

  before(async () => {
    root = await tempDir('ats-slow-start-');
    gate = path.join(root, 'gate');
    await mkdir(gate);
    t = await startTestServer({
      config: { hostCommandTimeoutMs: HOST_COMMAND_TIMEOUT_MS },
      providers: [
        createAcpProvider({
          name: 'slow',
          spec: { command: process.execPath, args: [IN_REPO_AGENT], env: { IN_REPO_AGENT_START_GATE: gate } },
          log: () => undefined,
        }),
      ],
    });
  });
  after(async () => {
    // No agent may still wait at its gate when the server closes.
    for (const name of ['starts', 'fails']) await writeFile(path.join(gate, name), 'fail', { flag: 'wx' }).catch(() => undefined);
    await t?.close();
  });

  /** A thread in a folder of its own: its agent starts once a file of that name is in the gate. */
  async function threadIn(name: string): Promise<string> {
    const folder = path.join(root, name);
    await mkdir(folder);
    const project = await t.json('/projects', { body: { name, source: { type: 'local_path', path: folder, hostId: t.server.hostId } } });
    return (await t.json('/threads', { body: { projectId: project.id, provider: 'slow', model: 'slow/default', title: name } })).id;
  }

  it('answers 202 while the agent starts, then the turn runs and the thread keeps the agent’s session', async () => {
    const threadId = await threadIn('starts');
    const response = await t.api(`/threads/${threadId}/messages`, { body: { prompt: 'say hi' } });
    expect(response.status, await response.clone().text()).to.equal(202);
    expect(await response.json()).to.deep.equal({ threadId, followUp: false });

    await writeFile(path.join(gate, 'starts'), 'go');
    const events = await eventsUntil(t, threadId, completedTurns(1));
    expect(completions(events).map((event) => event.data.status)).to.deep.equal(['completed']);
    const started = events.find((event) => event.type === 'turn/started')!;
    expect(started.data.providerThreadId).to.not.equal(threadId);
    // The record learns the session from the rows, as the prompt's answer could not name it.
    for (;;) {
      const thread = await t.json(`/threads/${threadId}`);
      if (thread.providerThreadId === started.data.providerThreadId) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });

  it('a start that fails after the answer is the prompt’s failed turn, with the prompt in the log', async () => {
    const threadId = await threadIn('fails');
    const response = await t.api(`/threads/${threadId}/messages`, { body: { prompt: 'say hi' } });
    expect(response.status, await response.clone().text()).to.equal(202);

    await writeFile(path.join(gate, 'fails'), 'fail');
    const events = await eventsUntil(t, threadId, completedTurns(1));
    const failed = completions(events);
    expect(failed.map((event) => event.data.status)).to.deep.equal(['failed']);
    expect(failed[0]!.data.error.message).to.contain('slow agent could not start');
    const prompts = events.filter((event) => event.type === 'item/completed' && event.data.item.type === 'userMessage');
    expect(prompts.map((event) => event.data.item.content[0].text)).to.deep.equal(['say hi']);
  });
});
