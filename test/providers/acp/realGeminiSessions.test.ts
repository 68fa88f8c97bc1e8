import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';
import { describeWithAgents } from '../../helpers/agents/acpAgents';
import { realAgentProvider } from '../../helpers/agents/realAgents';
import { startFakeGeminiServer, type FakeGeminiModel } from '../../helpers/fakes/geminiServer';
import { startTestServer, type TestServer } from '../../helpers/server/harness';
import { completedTurns, completions, eventsUntil, type ThreadEvent } from '../../helpers/server/threadRows';
import { suiteTempDirs } from '../../helpers/temp/suiteDirs';

/**
 * Gemini CLI 0.61 through the service, against the fake Gemini API: its models (which it reports in the
 * session's `models`, not as a config option as Claude Code and Codex do) reach the picker and the model server,
 * and a thread whose agent is started again (a daemon restart) goes on with the conversation it had.
 */
describeWithAgents('Gemini CLI sessions through the service: its models and a reloaded conversation', ['gemini'], function () {
  this.timeout(180_000);
  let model: FakeGeminiModel;
  let t: TestServer;
  let root: string;
  let projectId: string;
  const logs: string[] = [];
  const tempDir = suiteTempDirs();
  const startServer = (dataDir?: string) =>
    startTestServer({
      dataDir,
      providers: [realAgentProvider('gemini', path.join(root, 'home'), model.origin, (message) => logs.push(message))],
    });

  before(async () => {
    root = await tempDir('ats-gemini-sessions-');
    const projectDir = path.join(root, 'project');
    await mkdir(projectDir);
    model = await startFakeGeminiServer({
      'Say hello': [{ kind: 'text', chunks: ['Hello', ' there'] }],
      'Remember the fruit kumquat': [{ kind: 'text', chunks: ['Noted.'] }],
      'Which fruit was it': [{ kind: 'text', chunks: ['It was the one you named.'] }],
    });
    t = await startServer();
    projectId = (
      await t.json('/projects', { body: { name: 'gemini', source: { type: 'local_path', path: projectDir, hostId: t.server.hostId } } })
    ).id;
  });
  after(async () => {
    await t?.close();
    await model?.close();
    if (root) await rm(root, { recursive: true, force: true, maxRetries: 3 });
  });

  const createThread = async (modelName: string, prompt: string): Promise<string> =>
    (await t.json('/threads', { body: { projectId, provider: 'gemini', model: modelName, title: 'gemini', prompt } })).id;
  /** The model of each conversation request since `from` (the fake's path is `models/<name>:streamGenerateContent`). */
  const streamedModels = (from: number) =>
    model.requests.slice(from).flatMap((request) => /\/models\/([^/:]+):streamGenerateContent$/.exec(request.path)?.[1] ?? []);

  it("lists Gemini's own models for the picker once a session has opened, beside gemini/default", async () => {
    const threadId = await createThread('gemini/default', 'Say hello');
    await eventsUntil(t, threadId, completedTurns(1));
    const { models } = await t.json(`/hosts/${t.server.hostId}/models?provider=gemini`);
    const ids = models.map((entry: { model: string }) => entry.model);
    expect(ids[0]).to.equal('gemini/default');
    // Gemini CLI 0.61 with an API key: `auto` (its router) and the models it names one by one.
    expect(ids, JSON.stringify(models)).to.include.members(['gemini/auto', 'gemini/gemini-2.5-pro']);
    expect(models.find((entry: { model: string }) => entry.model === 'gemini/gemini-2.5-pro')).to.deep.include({
      provider: 'gemini',
      name: 'gemini-2.5-pro',
      available: true,
    });
  });

  it('a thread on a model Gemini listed runs on that model: the model server is asked for it', async () => {
    const from = model.requests.length;
    const threadId = await createThread('gemini/gemini-2.5-pro', 'Say hello');
    const events = await eventsUntil(t, threadId, completedTurns(1));
    expect(
      completions(events).map((event) => event.data.status),
      logs.join('\n'),
    ).to.deep.equal(['completed']);
    expect(streamedModels(from)).to.deep.equal(['gemini-2.5-pro']);
  });

  it('after a daemon restart the same session is loaded and the model sees the earlier turns', async () => {
    const threadId = await createThread('gemini/default', 'Remember the fruit kumquat');
    const before: ThreadEvent[] = await eventsUntil(t, threadId, completedTurns(1));
    const session = before[0]!.data.providerThreadId;
    const dataDir = t.dataDir;
    // At once: Gemini CLI 0.61 loses a session loaded in the minute it was made unless the service waits that out.
    await t.close({ keepData: true });
    t = await startServer(dataDir);

    const from = model.requests.length;
    await t.json(`/threads/${threadId}/messages`, { body: { prompt: 'Which fruit was it?' } });
    const events = await eventsUntil(t, threadId, completedTurns(2));
    expect(completions(events).map((event) => event.data.status)).to.deep.equal(['completed', 'completed']);
    const sessions = events.filter((event) => event.type === 'turn/started').map((event) => event.data.providerThreadId);
    expect(sessions, logs.join('\n')).to.deep.equal([session, session]);
    const asked = model.requests.slice(from).filter((request) => request.path.endsWith(':streamGenerateContent'));
    expect(asked).to.have.length(1);
    const contents = JSON.stringify(asked[0]!.body['contents']);
    expect(contents).to.include('Remember the fruit kumquat').and.to.include('Noted.');
    // The replayed history is not stored again.
    expect(events.slice(0, before.length)).to.deep.equal(before);
    expect(events.filter((event) => event.type === 'item/completed' && event.data.item.type === 'userMessage')).to.have.length(2);
  });
});
