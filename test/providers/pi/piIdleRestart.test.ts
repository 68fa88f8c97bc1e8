import { expect } from 'chai';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { createPiProvider } from '../../../src/daemon/providers/pi';
import { scriptByPrompt, startFakeModelServer, type FakeModelServer } from '../../helpers/fakes/modelServer';
import { eventually } from '../../helpers/server/eventually';
import { startTestServer, type TestServer } from '../../helpers/server/harness';
import { createPiSandbox, FAKE_MODEL, type PiSandbox } from './piSandbox';

interface ThreadEvent {
  type: string;
  data: Record<string, any>;
}

describe('pi: an idle agent closes, and the next prompt continues the same session (issue 28)', function () {
  let model: FakeModelServer;
  let sandbox: PiSandbox;
  let t: TestServer;
  let projectId: string;

  before(async () => {
    model = await startFakeModelServer(
      scriptByPrompt({
        'Remember the word': [{ kind: 'text', chunks: ['I will remember ', 'PELICAN.'] }],
        'Which word': [{ kind: 'text', chunks: ['It was PELICAN.'] }],
      }),
    );
    sandbox = createPiSandbox({ baseUrl: model.baseUrl });
    t = await startTestServer({
      // Far shorter than pi takes, on a loaded machine, from a prompt to its run's first event: a prompt it took
      // keeps the agent until its turn ends (test/daemon/agentLifecycle/promptBeforeRun.test.ts).
      config: { agentIdleMs: 100 },
      providers: [createPiProvider({ agentDir: sandbox.agentDir, log: () => undefined })],
    });
    projectId = (
      await t.json('/projects', {
        body: { name: 'idle', source: { type: 'local_path', path: sandbox.projectDir, hostId: t.server.hostId } },
      })
    ).id;
  });
  after(async () => {
    await t.close();
    await model.close();
    sandbox.remove();
  });

  const agentOf = async (threadId: string) => (await t.server.hosts.call(t.server.hostId, 'thread.status', { threadId })).agent;
  const turnsCompleted = (threadId: string, count: number) =>
    eventually(
      async () => {
        const events: ThreadEvent[] = await t.json(`/threads/${threadId}/events?limit=1000`);
        return events.filter((event) => event.type === 'turn/completed').length >= count ? events : undefined;
        // The first turn of the suite loads the pi SDK: seconds on a loaded machine.
      },
      `${count} completed turns`,
      30_000,
    );
  const sessionFolder = () => path.join(t.dataDir, 'daemon', 'providers', 'pi');

  it('closes the agent once idle; the next prompt starts it on the same session and the model sees the earlier turn', async () => {
    const thread = await t.json('/threads', {
      body: { projectId, provider: 'pi', model: FAKE_MODEL, title: 'idle', prompt: 'Remember the word' },
    });
    const first = await turnsCompleted(thread.id, 1);
    const providerThreadId = first[0]!.data.providerThreadId;
    await eventually(async () => ((await agentOf(thread.id)) === 'stopped' ? true : undefined), 'the idle close');

    const requestsBefore = model.requests.length;
    await t.json(`/threads/${thread.id}/messages`, { body: { prompt: 'Which word' } });
    const events = await turnsCompleted(thread.id, 2);
    expect(events.filter((event) => event.type === 'turn/completed').map((event) => event.data.status)).to.deep.equal([
      'completed',
      'completed',
    ]);
    expect(new Set(events.map((event) => event.data.providerThreadId))).to.deep.equal(new Set([providerThreadId]));
    expect((await t.json(`/threads/${thread.id}`)).providerThreadId).to.equal(providerThreadId);
    // The restarted agent sent the model the first turn's conversation too.
    const messages = JSON.stringify(model.requests[requestsBefore]!.messages);
    expect(messages).to.contain('Remember the word').and.contain('I will remember PELICAN.');
  });

  it('thread.delete removes the pi session files of the thread (and only those)', async () => {
    const [kept, gone] = await Promise.all(
      ['kept', 'gone'].map((title) =>
        t.json('/threads', { body: { projectId, provider: 'pi', model: FAKE_MODEL, title, prompt: 'Remember the word' } }),
      ),
    );
    const sessionOf = async (threadId: string) => (await turnsCompleted(threadId, 1))[0]!.data.providerThreadId as string;
    const [keptSession, goneSession] = [await sessionOf(kept.id), await sessionOf(gone.id)];
    const filesOf = (session: string) => readdirSync(sessionFolder()).filter((name) => name.endsWith(`_${session}.jsonl`));
    expect(filesOf(goneSession)).to.have.length(1);

    await t.server.hosts.call(t.server.hostId, 'thread.delete', { threadId: gone.id });
    expect(filesOf(goneSession)).to.deep.equal([]);
    expect(filesOf(keptSession)).to.have.length(1);
    expect(existsSync(sessionFolder())).to.equal(true);
  });
});
