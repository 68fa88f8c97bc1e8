import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';
import { createAcpProvider } from '../../../src/daemon/providers/acp';
import { eventually } from '../../helpers/server/eventually';
import { startTestServer, type TestServer } from '../../helpers/server/harness';
import { completedTurns, eventsUntil } from '../../helpers/server/threadRows';
import { suiteTempDirs } from '../../helpers/temp/suiteDirs';

const AGENT_SCRIPT = path.join(__dirname, '..', '..', 'helpers', 'agents', 'inRepoAcpAgent.mjs');
const DELETE_TIMEOUT_MS = 300;

/**
 * A thread delete asks its ACP agent to delete the session (`session/delete`, issue 28), with the in-repo agent
 * (test/helpers/agents/inRepoAcpAgent.mjs): one that records each delete, one that deletes no sessions over ACP,
 * one that never answers a delete.
 */
describe('thread delete with an in-repo ACP agent: session/delete', function () {
  this.timeout(30_000);
  let t: TestServer;
  let projectDir: string;
  let deletedFile: string;
  const logs: string[] = [];
  const tempDir = suiteTempDirs();

  before(async () => {
    const root = await tempDir('ats-acp-delete-');
    projectDir = path.join(root, 'project');
    deletedFile = path.join(root, 'deleted.txt');
    const agent = (name: string, env: Record<string, string>, deleteTimeoutMs?: number) =>
      createAcpProvider({
        name,
        spec: { command: process.execPath, args: [AGENT_SCRIPT], env },
        ...(deleteTimeoutMs === undefined ? {} : { deleteTimeoutMs }),
        log: (message) => logs.push(message),
      });
    t = await startTestServer({
      providers: [
        agent('recording', { IN_REPO_AGENT_DELETE: 'record', IN_REPO_AGENT_DELETED: deletedFile }),
        agent('keeping', {}),
        agent('hanging', { IN_REPO_AGENT_DELETE: 'hang' }, DELETE_TIMEOUT_MS),
      ],
      config: { agentIdleMs: 200 },
      log: (message) => logs.push(message),
    });
    await mkdir(projectDir);
  });
  after(() => t?.close());

  let projectId: string | undefined;
  /** A thread of `provider` that ran one turn; its agent closed when idle, or kept running. */
  async function threadAfterOneTurn(provider: string, agent: 'stopped' | 'running') {
    projectId ??= (
      await t.json('/projects', { body: { name: 'p', source: { type: 'local_path', path: projectDir, hostId: t.server.hostId } } })
    ).id;
    const thread = await t.json('/threads', { body: { projectId, provider, model: `${provider}/default`, title: 'delete me' } });
    if (agent === 'running') await t.json(`/threads/${thread.id}`, { method: 'PATCH', body: { keepAgentRunning: true } });
    await t.json(`/threads/${thread.id}/messages`, { body: { prompt: 'say hi' } });
    const events = await eventsUntil(t, thread.id, completedTurns(1));
    await eventually(
      async () => ((await t.json(`/threads/${thread.id}`)).agent === agent ? true : undefined),
      `the agent ${agent}`,
      10_000,
    );
    return { id: thread.id as string, session: events[0]!.data.providerThreadId as string };
  }
  const deleted = async () => (await readFile(deletedFile, 'utf8').catch(() => '')).trim().split('\n').filter(Boolean);
  const remove = async (threadId: string) => (await t.api(`/threads/${threadId}`, { method: 'DELETE' })).status;

  it('an agent closed when idle is started in the thread folder to delete the session, then ends', async () => {
    const thread = await threadAfterOneTurn('recording', 'stopped');
    expect(await remove(thread.id)).to.equal(204);
    const line = (await deleted()).find((entry) => entry.startsWith(`${thread.session} `));
    expect(line, logs.join('\n')).to.not.equal(undefined);
    const [, pid, cwd] = line!.split(' ');
    expect(cwd).to.equal(projectDir);
    // Not the agent that ran the turn (its pid ends the session id): that one had closed.
    expect(thread.session.endsWith(`-${pid}`)).to.equal(false);
    expect(() => process.kill(Number(pid), 0)).to.throw();
    expect((await t.api(`/threads/${thread.id}`)).status).to.equal(404);
  });

  it('a running agent deletes its own session before it closes: no second agent is started', async () => {
    const thread = await threadAfterOneTurn('recording', 'running');
    expect(await remove(thread.id)).to.equal(204);
    const line = (await deleted()).find((entry) => entry.startsWith(`${thread.session} `));
    expect(line, logs.join('\n')).to.not.equal(undefined);
    expect(thread.session.endsWith(`-${line!.split(' ')[1]}`)).to.equal(true);
  });

  for (const agent of ['stopped', 'running'] as const) {
    it(`an agent without the delete capability (${agent}): the thread is deleted, the log says the session stays`, async () => {
      const thread = await threadAfterOneTurn('keeping', agent);
      expect(await remove(thread.id)).to.equal(204);
      expect(logs.filter((line) => line.includes(`session ${thread.session} stays where the agent keeps it`))).to.have.length(1);
      expect((await t.api(`/threads/${thread.id}`)).status).to.equal(404);
    });

    it(`an agent that never answers session/delete (${agent}): the thread is deleted, the host gives up after the timeout`, async () => {
      const thread = await threadAfterOneTurn('hanging', agent);
      expect(await remove(thread.id)).to.equal(204);
      expect((await t.api(`/threads/${thread.id}`)).status).to.equal(404);
      expect(logs.filter((line) => line.includes(thread.id) || line.includes(thread.session)).join('\n'), logs.join('\n')).to.contain(
        `did not delete the session within ${DELETE_TIMEOUT_MS} ms; gave up`,
      );
    });
  }
});
