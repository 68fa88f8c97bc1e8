import { expect } from 'chai';
import { agentStartedTurnTypes } from '../../helpers/pipeline/specEventOrder';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createPiProvider } from '../../../src/daemon/providers/pi';
import { scriptByPrompt, startFakeModelServer, type FakeModelServer } from '../../helpers/fakes/modelServer';
import { startTestServer, type TestServer } from '../../helpers/server/harness';
import { keepAgentRunning } from './keepAgentRunning';
import { createPiSandbox, FAKE_CONTEXT_WINDOW, FAKE_MODEL, SESSION_START_EXTENSION, type PiSandbox } from './piSandbox';

interface ThreadEvent {
  seq: number;
  type: string;
  turnId: string | null;
  data: Record<string, any>;
}

/** The spec's order for an agent-started turn (part 6), custom message boundaries included. */
const AGENT_TURN = agentStartedTurnTypes(2);

describe('pi extensions run without any prompt: from thread creation, and again after a restart', function () {
  let model: FakeModelServer;
  let sandbox: PiSandbox;
  const servers: TestServer[] = [];

  before(async () => {
    model = await startFakeModelServer(scriptByPrompt({ 'Session started': [{ kind: 'text', chunks: ['Build ', 'checked.'] }] }));
    sandbox = createPiSandbox({ baseUrl: model.baseUrl, extensions: { 'on-start.ts': SESSION_START_EXTENSION } });
  });
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
  });
  after(async () => {
    await model.close();
    sandbox.remove();
  });

  const startOn = async (dataDir?: string) => {
    const server = await startTestServer({ dataDir, providers: [createPiProvider({ agentDir: sandbox.agentDir, log: () => undefined })] });
    servers.push(server);
    return server;
  };
  /**
   * A thread created with no prompt and marked to keep its agent running (issue 28: only those start an agent
   * without a prompt): nothing but the extension can start a run in it.
   */
  const createThread = async (t: TestServer) => {
    const project = await t.json('/projects', {
      body: { name: 'ext', source: { type: 'local_path', path: sandbox.projectDir, hostId: t.server.hostId } },
    });
    const created = await t.json('/threads', { body: { projectId: project.id, provider: 'pi', model: FAKE_MODEL, title: 'no prompt' } });
    return keepAgentRunning(t, created.id);
  };
  const turnsCompleted = async (t: TestServer, threadId: string, count: number): Promise<ThreadEvent[]> => {
    for (;;) {
      const events: ThreadEvent[] = await t.json(`/threads/${threadId}/events?limit=1000`);
      if (events.filter((event) => event.type === 'turn/completed').length >= count) return events;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  const lastSessionEntryId = (t: TestServer, providerThreadId: string): string => {
    const folder = path.join(t.dataDir, 'daemon', 'providers', 'pi');
    const file = readdirSync(folder).find((name) => name.endsWith(`_${providerThreadId}.jsonl`))!;
    return (JSON.parse(readFileSync(path.join(folder, file), 'utf8').trim().split('\n').at(-1)!) as { id: string }).id;
  };

  it('an extension that starts a run in session_start of a kept-running thread: an agent turn that completes in the spec order, thread idle, named by the pi session from its start on', async () => {
    const t = await startOn();
    const thread = await createThread(t);
    expect(thread.providerThreadId).to.match(/^[0-9a-f-]{36}$/); // the pi session id, not the thr_ id
    const providerThreadId = thread.providerThreadId!;

    const events = await turnsCompleted(t, thread.id, 1);
    expect(events.map((event) => event.type)).to.deep.equal(AGENT_TURN);
    const [started] = events;
    const completed = events.find((event) => event.type === 'turn/completed')!;
    expect(started!.data.origin).to.equal('agent');
    expect(completed.data.status).to.equal('completed');
    expect(events.find((event) => event.type === 'item/completed' && event.data.item.type === 'agentMessage')!.data.item.text).to.equal(
      'Build checked.',
    );
    // Rows of a run that began while the session was still opening name the session too.
    expect(new Set(events.map((event) => event.data.providerThreadId))).to.deep.equal(new Set([providerThreadId]));
    expect(completed.data.providerCheckpointId).to.equal(lastSessionEntryId(t, providerThreadId));
    expect(events.at(-1)!.data.contextWindowUsage.modelContextWindow).to.equal(FAKE_CONTEXT_WINDOW);
    expect((await t.json(`/threads/${thread.id}`)).status).to.equal('idle');
  });

  it('after the server and daemon restart on the same data dir, the kept-running session resumes at the hello and the extension runs again unprompted', async () => {
    const first = await startOn();
    const thread = await createThread(first);
    await turnsCompleted(first, thread.id, 1);
    await first.close({ keepData: true });
    const requestsBefore = model.requests.length;

    const second = await startOn(first.dataDir);
    const events = await turnsCompleted(second, thread.id, 2);
    const secondTurn = events.filter((event) => event.turnId === events.filter((e) => e.type === 'turn/completed')[1]!.turnId);
    expect(secondTurn.map((event) => event.type)).to.deep.equal(AGENT_TURN);
    expect(secondTurn[0]!.data).to.deep.include({ origin: 'agent', providerThreadId: thread.providerThreadId });
    expect(secondTurn.find((event) => event.type === 'turn/completed')!.data.status).to.equal('completed');
    // The resumed session sent the model the first run's conversation, too.
    expect(JSON.stringify(model.requests[requestsBefore]!.messages)).to.contain('Build checked.');
    expect((await second.json(`/threads/${thread.id}`)).status).to.equal('idle');
  });
});
