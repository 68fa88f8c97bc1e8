import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';
import { createProviders } from '../../../src/daemon/providerFactories';
import { startTestServer, type TestServer } from '../../helpers/server/harness';
import { completedTurns, completions, eventsUntil, type ThreadEvent } from '../../helpers/server/threadRows';
import { suiteTempDirs } from '../../helpers/temp/suiteDirs';

const FAULTY_AGENT = path.join(__dirname, '..', '..', 'helpers', 'fakes', 'faultyAcpAgent.mjs');
/** Short, so a deaf agent's stop ends within the test; the fix must not depend on its length. */
const TURN_GRACE_MS = 300;
/** Far below the default (60 s): an agent that never answers `initialize` fails its start within the test. */
const AGENT_START_TIMEOUT_MS = 4_000;

/**
 * Agent faults that must not outlive their turn (issue 37): ACP agents declared in `ATS_ACP_AGENTS`, one per fault
 * (test/helpers/fakes/faultyAcpAgent.mjs), driven through the HTTP API of a server with its embedded daemon. Each
 * start of an agent appends its pid to a file; an agent the daemon ended answers `kill(pid, 0)` with ESRCH.
 */
describe('faulty ACP agents: a fault ends with its turn, and the next prompt runs on a fresh agent', function () {
  this.timeout(60_000);
  let t: TestServer;
  let root: string;
  const tempDir = suiteTempDirs();
  const pidFile = (agent: string) => path.join(root, `${agent}.pids`);

  before(async () => {
    root = await tempDir('ats-faulty-acp-');
    const declared = Object.fromEntries(
      ['huge-line', 'deaf', 'no-init'].map((fault) => [
        fault,
        { command: process.execPath, args: [FAULTY_AGENT, fault], env: { FAULTY_AGENT_PIDS: pidFile(fault) } },
      ]),
    );
    t = await startTestServer({
      config: { turnGraceMs: TURN_GRACE_MS, agentStartTimeoutMs: AGENT_START_TIMEOUT_MS },
      providers: createProviders(Object.keys(declared), () => undefined, 'none', {
        ...process.env,
        ATS_ACP_AGENTS: JSON.stringify(declared),
      }),
    });
    const project = await t.json('/projects', {
      body: { name: 'faulty', source: { type: 'local_path', path: root, hostId: t.server.hostId } },
    });
    projectId = project.id;
  });
  after(async () => {
    await t?.close();
  });
  let projectId: string;

  const newThread = async (provider: string): Promise<string> =>
    (await t.json('/threads', { body: { projectId, provider, model: `${provider}/default`, title: provider } })).id;
  const prompt = (threadId: string, text: string) => t.json(`/threads/${threadId}/messages`, { body: { prompt: text } });
  const pidsOf = async (agent: string): Promise<number[]> =>
    (await readFile(pidFile(agent), 'utf8').catch(() => '')).split('\n').filter(Boolean).map(Number);
  async function untilPids(agent: string, count: number): Promise<number[]> {
    for (;;) {
      const pids = await pidsOf(agent);
      if (pids.length >= count) return pids;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
  const alive = (pid: number): boolean => {
    try {
      process.kill(pid, 0);
      return true;
    } catch (error) {
      expect((error as NodeJS.ErrnoException).code).to.equal('ESRCH');
      return false;
    }
  };
  const statuses = (events: ThreadEvent[]) => completions(events).map((event) => event.data.status);
  const agentText = (events: ThreadEvent[]) =>
    events
      .filter((event) => event.type === 'item/completed' && event.data.item.type === 'agentMessage')
      .map((event) => event.data.item.text);

  it('a 40 MB line fails its turn; the process on the dead connection is ended and the next prompt runs on a fresh agent', async () => {
    const threadId = await newThread('huge-line');
    await prompt(threadId, 'huge');
    const failed = await eventsUntil(t, threadId, completedTurns(1));
    expect(statuses(failed)).to.deep.equal(['failed']);
    const [first] = await pidsOf('huge-line');

    await prompt(threadId, 'say hi');
    const events = await eventsUntil(t, threadId, completedTurns(2));
    expect(statuses(events)).to.deep.equal(['failed', 'completed']);
    const [, second] = await pidsOf('huge-line');
    expect(second).to.be.a('number').and.not.equal(first);
    expect(agentText(events)).to.deep.equal([`Hi from ${second}`]);
    expect(alive(first!)).to.equal(false);
  });

  it('a stop the agent ignores ends the turn and the agent; the next prompt reaches a fresh agent', async () => {
    const threadId = await newThread('deaf');
    await prompt(threadId, 'hang');
    await eventsUntil(t, threadId, (events) =>
      events.some((event) => event.type === 'item/started' || event.type === 'item/agentMessage/delta'),
    );
    const [first] = await pidsOf('deaf');

    await t.json(`/threads/${threadId}/stop`, { method: 'POST' });
    expect(statuses(await eventsUntil(t, threadId, completedTurns(1)))).to.deep.equal(['interrupted']);
    await prompt(threadId, 'say hi');
    const events = await eventsUntil(t, threadId, completedTurns(2));
    expect(statuses(events)).to.deep.equal(['interrupted', 'completed']);
    const [, second] = await pidsOf('deaf');
    expect(agentText(events).at(-1)).to.equal(`Hi from ${second}`);
    expect(alive(first!)).to.equal(false);
  });

  it('a stop cuts short the start of an agent that never answers initialize, and ends its process before it answers', async () => {
    const threadId = await newThread('no-init');
    const before = (await pidsOf('no-init')).length;
    // Answered once the start ends: here by the stop, with the start's failure.
    const answered = t.api(`/threads/${threadId}/messages`, { body: { prompt: 'say hi' } });
    const [pid] = (await untilPids('no-init', before + 1)).slice(before);
    await t.json(`/threads/${threadId}/stop`, { method: 'POST' });
    expect(alive(pid!)).to.equal(false);
    await answered;
    const events = await eventsUntil(t, threadId, completedTurns(1));
    expect(statuses(events)).to.deep.equal(['failed']);
    expect(completions(events)[0]!.data.error.message).to.contain('stopped');
    expect((await t.json(`/threads/${threadId}`)).agent).to.equal('stopped');
  });

  it('an agent start that never answers fails after the start timeout, and leaves no process', async () => {
    const threadId = await newThread('no-init');
    const before = (await pidsOf('no-init')).length;
    const answered = t.api(`/threads/${threadId}/messages`, { body: { prompt: 'say hi' } });
    const [pid] = (await untilPids('no-init', before + 1)).slice(before);
    const events = await eventsUntil(t, threadId, completedTurns(1));
    expect(statuses(events)).to.deep.equal(['failed']);
    expect(completions(events)[0]!.data.error.message).to.contain(`did not start within ${AGENT_START_TIMEOUT_MS} ms`);
    await answered;
    expect(alive(pid!)).to.equal(false);
  });

  it('a delete cuts a start short: the thread is gone and so is its agent process', async () => {
    const threadId = await newThread('no-init');
    const before = (await pidsOf('no-init')).length;
    const answered = t.api(`/threads/${threadId}/messages`, { body: { prompt: 'say hi' } });
    const [pid] = (await untilPids('no-init', before + 1)).slice(before);
    const deleted = await t.api(`/threads/${threadId}`, { method: 'DELETE' });
    expect(deleted.status, await deleted.text()).to.equal(204);
    expect(alive(pid!)).to.equal(false);
    await answered;
    expect((await t.api(`/threads/${threadId}`)).status).to.equal(404);
  });

  it('a daemon that closes ends an agent still starting', async () => {
    const threadId = await newThread('no-init');
    const before = (await pidsOf('no-init')).length;
    void t.api(`/threads/${threadId}/messages`, { body: { prompt: 'say hi' } }).catch(() => undefined);
    const [pid] = (await untilPids('no-init', before + 1)).slice(before);
    await t.server.close();
    expect(alive(pid!)).to.equal(false);
  });
});
