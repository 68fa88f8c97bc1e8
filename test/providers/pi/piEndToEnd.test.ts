import { expect } from 'chai';
import { agentStartedTurnTypes } from '../../helpers/pipeline/specEventOrder';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createPiProvider } from '../../../src/daemon/providers/pi';
import { scriptByPrompt, startFakeModelServer, type FakeModelServer, type ScriptedReply } from '../../helpers/fakes/modelServer';
import { startTestServer, type TestServer } from '../../helpers/server/harness';
import { keepAgentRunning } from './keepAgentRunning';
import { createPiSandbox, FAKE_CONTEXT_WINDOW, FAKE_MODEL, TRIGGER_EXTENSION, type PiSandbox } from './piSandbox';
import { commandRows, completedTurns, completions, eventsUntil, type ThreadEvent } from '../../helpers/server/threadRows';

const text = (...chunks: string[]): ScriptedReply => ({ kind: 'text', chunks });

const SCRIPTS: Record<string, ScriptedReply[]> = {
  'Say hello': [text('Hello', ' there')],
  'Run echo': [{ kind: 'toolCall', toolName: 'bash', args: { command: 'echo e2e | tee e2e.txt' } }, text('Ran it.')],
  'Run a long command': [{ kind: 'toolCall', toolName: 'bash', args: { command: 'echo started; sleep 30' } }, text('Never reached.')],
  'Fail please': [{ kind: 'httpError', status: 400, message: 'refused by the fake model' }],
  'Think slowly': [{ kind: 'slow', chunks: ['Thinking'], rest: [' done.'] }],
  // Held open until releaseSlow(), so a test can see the agent's own turn while it streams.
  'Check the build': [{ kind: 'slow', chunks: ['Build '], rest: ['checked.'] }],
  'Cut me off': [{ kind: 'cut', chunks: ['Half an ans'] }],
  'Remember the word kiwi': [text('Noted: kiwi.')],
  'Which word': [text('The word was kiwi.')],
};

describe('pi end to end: HTTP API → embedded daemon → real pi SDK → fake model', function () {
  let model: FakeModelServer;
  let sandbox: PiSandbox;
  let t: TestServer;
  let projectId: string;
  /** Its own project, so no other thread's copy of the trigger extension takes the trigger first. */
  let extensionProjectId: string;
  let extensionSandbox: PiSandbox;

  before(async () => {
    model = await startFakeModelServer(scriptByPrompt(SCRIPTS));
    sandbox = createPiSandbox({ baseUrl: model.baseUrl });
    extensionSandbox = createPiSandbox({ baseUrl: model.baseUrl, extensions: { 'trigger.ts': TRIGGER_EXTENSION } });
    t = await startTestServer({ providers: [createPiProvider({ agentDir: sandbox.agentDir, log: () => undefined })] });
    const projectAt = async (folder: string) =>
      (await t.json('/projects', { body: { name: 'pi e2e', source: { type: 'local_path', path: folder, hostId: t.server.hostId } } }))
        .id as string;
    projectId = await projectAt(sandbox.projectDir);
    extensionProjectId = await projectAt(extensionSandbox.projectDir);
  });
  after(async () => {
    await t.close();
    await model.close();
    sandbox.remove();
    extensionSandbox.remove();
  });

  const createThread = (prompt?: string, project = projectId) =>
    t.json('/threads', {
      body: {
        projectId: project,
        provider: 'pi',
        model: FAKE_MODEL,
        title: 'e2e',
        permissionMode: 'accept-edits',
        ...(prompt ? { prompt } : {}),
      },
    });

  /** The id of the last entry pi wrote to the thread's session file (`<daemon dataDir>/providers/pi/…_<id>.jsonl`). */
  const lastSessionEntryId = (providerThreadId: string): string => {
    const folder = path.join(t.dataDir, 'daemon', 'providers', 'pi');
    const file = readdirSync(folder).find((name) => name.endsWith(`_${providerThreadId}.jsonl`));
    if (!file) throw new Error(`no session file for ${providerThreadId} in ${folder}`);
    const entries = readFileSync(path.join(folder, file), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id?: string });
    return entries.at(-1)!.id!;
  };

  it('a client turn with text: turn completes with the streamed answer, the thread is idle, providerThreadId is the pi session', async () => {
    const thread = await createThread('Say hello');
    const events = await eventsUntil(t, thread.id, completedTurns(1));

    const types = events.map((event) => event.type);
    expect(types[0]).to.equal('turn/started');
    expect(types.filter((type) => type === 'item/agentMessage/delta')).to.have.length(2);
    expect(events.find((event) => event.type === 'item/completed' && event.data.item.type === 'agentMessage')!.data.item.text).to.equal(
      'Hello there',
    );
    expect(completions(events)[0].data.status).to.equal('completed');
    expect(events.find((event) => event.type === 'thread/contextWindowUsage/updated')!.data.contextWindowUsage.modelContextWindow).to.equal(
      FAKE_CONTEXT_WINDOW,
    );
    expect(events[0].data.providerThreadId).to.match(/^[0-9a-f-]{36}$/);
    const view = await t.json(`/threads/${thread.id}`);
    expect(view.status).to.equal('idle');
  });

  it("providerCheckpointId on turn/completed is the pi session's leaf entry after the run (the last entry of its session file)", async () => {
    const thread = await createThread('Say hello');
    const [first] = completions(await eventsUntil(t, thread.id, completedTurns(1)));
    expect(first.data.providerCheckpointId).to.equal(lastSessionEntryId(first.data.providerThreadId));

    await t.json(`/threads/${thread.id}/messages`, { body: { prompt: 'Say hello' } });
    const [, second] = completions(await eventsUntil(t, thread.id, completedTurns(2)));
    expect(second.data.providerCheckpointId).to.equal(lastSessionEntryId(second.data.providerThreadId));
    expect(second.data.providerCheckpointId).to.not.equal(first.data.providerCheckpointId);
  });

  it('a turn with a bash tool call runs the command in the environment folder and shows it as a commandExecution item with its output', async () => {
    const thread = await createThread('Run echo');
    const events = await eventsUntil(t, thread.id, completedTurns(1));
    const [completed] = completions(events);
    const commands = commandRows(events);

    expect(commands.map((event) => event.type)).to.deep.equal(['item/started', 'item/commandExecution/outputDelta', 'item/completed']);
    const [started, delta, done] = commands;
    expect(started!.data.item).to.deep.equal({
      type: 'commandExecution',
      id: started!.data.item.id,
      command: 'echo e2e | tee e2e.txt',
      status: 'inProgress',
      aggregatedOutput: '',
    });
    expect(delta!.data).to.deep.include({ itemId: started!.data.item.id, delta: 'e2e\n' });
    expect(done!.data.item).to.deep.equal({ ...started!.data.item, status: 'completed', aggregatedOutput: 'e2e\n', exitCode: 0 });
    expect(commands.every((event) => event.turnId === completed.turnId)).to.equal(true);
    // The item sits between the two assistant messages of the run: the tool call, then the answer.
    const doneAt = events.indexOf(done!);
    expect(
      events.slice(doneAt).find((event) => event.type === 'item/completed' && event.data.item.type === 'agentMessage')!.data.item.text,
    ).to.equal('Ran it.');

    expect(completed.data.status).to.equal('completed');
    expect(completed.data.providerCheckpointId).to.equal(lastSessionEntryId(completed.data.providerThreadId));
    expect(readFileSync(path.join(sandbox.projectDir, 'e2e.txt'), 'utf8')).to.equal('e2e\n');
    expect(events.filter((event) => event.type === 'provider/unhandled').map((event) => event.data.rawType)).to.deep.equal([]);
  });

  it('a model error ends the turn with turn/completed failed and the model message', async () => {
    const thread = await createThread('Fail please');
    const events = await eventsUntil(t, thread.id, completedTurns(1));

    const [completed] = completions(events);
    expect(completed.data.status).to.equal('failed');
    expect(completed.data.error.message).to.contain('refused by the fake model');
    expect((await t.json(`/threads/${thread.id}`)).status).to.equal('idle');
  });

  it('a stream cut mid-answer with retries off ends the turn with turn/completed failed, and the thread is idle', async () => {
    const thread = await createThread('Cut me off');
    const events = await eventsUntil(t, thread.id, completedTurns(1));

    const [completed] = completions(events);
    expect(completed.data.status).to.equal('failed');
    expect(completed.data.error.message).to.equal('terminated'); // what pi reports for a dropped connection
    expect(events.filter((event) => event.type === 'turn/started')).to.have.length(1); // no retry run
    expect((await t.json(`/threads/${thread.id}`)).status).to.equal('idle');
  });

  it('stop mid-stream ends the turn exactly once, interrupted, and the thread is idle', async () => {
    const thread = await createThread('Think slowly');
    await eventsUntil(t, thread.id, (events) => events.some((event) => event.type === 'item/agentMessage/delta'));
    expect((await t.json(`/threads/${thread.id}`)).status).to.equal('active');

    await t.json(`/threads/${thread.id}/stop`, { method: 'POST' });
    await eventsUntil(t, thread.id, completedTurns(1));
    expect((await t.json(`/threads/${thread.id}`)).status).to.equal('idle');
    // Frames are stored in order: a second completion of the stopped turn would show up before the next turn.
    await t.json(`/threads/${thread.id}/messages`, { body: { prompt: 'Say hello' } });
    const events = await eventsUntil(t, thread.id, completedTurns(2));
    expect(completions(events).map((event) => event.data.status)).to.deep.equal(['interrupted', 'completed']);
  });

  it('stop while a command runs: the command item completes failed before the turn completes interrupted', async () => {
    const thread = await createThread('Run a long command');
    const outputSeen = (events: ThreadEvent[]) => events.some((event) => event.type === 'item/commandExecution/outputDelta');
    await eventsUntil(t, thread.id, outputSeen);

    await t.json(`/threads/${thread.id}/stop`, { method: 'POST' });
    const events = await eventsUntil(t, thread.id, completedTurns(1));
    const done = events.find((event) => event.type === 'item/completed' && event.data.item.type === 'commandExecution')!;
    const [completed] = completions(events);
    expect(done.data.item).to.deep.include({ command: 'echo started; sleep 30', status: 'failed' });
    expect(done.data.item.aggregatedOutput).to.contain('started');
    expect(done.data.item).to.not.have.property('exitCode');
    expect(done.seq).to.be.lessThan(completed.seq);
    expect(completed.data.status).to.equal('interrupted');
  });

  it('E3: a project extension starts a run by itself with string content; the thread is active while it streams, then the turn completes in the spec order and the thread is idle', async () => {
    // No prompt: a kept-running thread's pi session starts at its open, so the extension already runs.
    const thread = await keepAgentRunning(t, (await createThread(undefined, extensionProjectId)).id);

    extensionSandbox.triggerAgentRun('Check the build, please.');
    await eventsUntil(t, thread.id, (events) => events.some((event) => event.type === 'item/agentMessage/delta'));
    const whileStreaming = await t.json(`/threads/${thread.id}`);
    expect(whileStreaming.status).to.equal('active');
    expect(whileStreaming.runtime.displayStatus).to.equal('active');

    model.releaseSlow();
    const turn = await eventsUntil(t, thread.id, completedTurns(1));
    expect(turn.map((event) => event.type)).to.deep.equal(agentStartedTurnTypes(2));
    expect(turn[0].data.origin).to.equal('agent');
    expect(turn[1].data.rawType).to.equal('sdk/message_start');
    expect(turn[2].data.rawType).to.equal('sdk/message_end');
    expect(turn.find((event) => event.type === 'turn/completed')!.data.status).to.equal('completed');
    expect(turn.find((event) => event.type === 'item/completed' && event.data.item.type === 'agentMessage')!.data.item.text).to.equal(
      'Build checked.',
    );
    expect((await t.json(`/threads/${thread.id}`)).status).to.equal('idle');
  });

  it('two threads run at once, each with its own pi session, and both complete', async () => {
    const [first, second] = await Promise.all([createThread('Think slowly'), createThread('Think slowly')]);
    const streaming = (events: ThreadEvent[]) => events.some((event) => event.type === 'item/agentMessage/delta');
    await Promise.all([eventsUntil(t, first.id, streaming), eventsUntil(t, second.id, streaming)]);
    const views = await Promise.all([t.json(`/threads/${first.id}`), t.json(`/threads/${second.id}`)]);
    expect(views.map((view) => view.status)).to.deep.equal(['active', 'active']);

    model.releaseSlow();
    const [firstEvents, secondEvents] = await Promise.all([
      eventsUntil(t, first.id, completedTurns(1)),
      eventsUntil(t, second.id, completedTurns(1)),
    ]);
    for (const events of [firstEvents, secondEvents]) {
      expect(completions(events).map((event) => event.data.status)).to.deep.equal(['completed']);
      expect(events.find((event) => event.type === 'item/completed' && event.data.item.type === 'agentMessage')!.data.item.text).to.equal(
        'Thinking done.',
      );
    }
    expect(firstEvents[0].data.providerThreadId).not.to.equal(secondEvents[0].data.providerThreadId);
  });

  it('a thread continues its pi conversation after the server and daemon restart on the same data dir', async () => {
    const restartSandbox = createPiSandbox({ baseUrl: model.baseUrl });
    const startOn = (dataDir?: string) =>
      startTestServer({ dataDir, providers: [createPiProvider({ agentDir: restartSandbox.agentDir, log: () => undefined })] });
    const first = await startOn();
    const project = await first.json('/projects', {
      body: { name: 'restart', source: { type: 'local_path', path: restartSandbox.projectDir, hostId: first.server.hostId } },
    });
    const thread = await first.json('/threads', {
      body: { projectId: project.id, provider: 'pi', model: FAKE_MODEL, title: 'restart', prompt: 'Remember the word kiwi' },
    });
    const poll = async (server: TestServer, count: number): Promise<ThreadEvent[]> => {
      for (;;) {
        const events: ThreadEvent[] = await server.json(`/threads/${thread.id}/events?limit=1000`);
        if (completions(events).length >= count) return events;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };
    const before = await poll(first, 1);
    await first.close({ keepData: true });

    const second = await startOn(first.dataDir);
    try {
      await second.json(`/threads/${thread.id}/messages`, { body: { prompt: 'Which word' } });
      const after = await poll(second, 2);
      expect(after.at(-1)!.data.providerThreadId).to.equal(before[0].data.providerThreadId);
      expect(JSON.stringify(model.requests.at(-1)!.messages))
        .to.contain('Remember the word kiwi')
        .and.contain('Noted: kiwi.');
    } finally {
      await second.close();
      restartSandbox.remove();
    }
  });
});
