import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { scriptByPrompt, startFakeModelServer, type FakeModelServer } from '../../helpers/fakes/modelServer';
import { eventually } from '../../helpers/server/eventually';
import { TEST_TOKEN } from '../../helpers/server/harness';
import { npmStart, type StartedProcess } from '../../helpers/server/process';
import { createPiSandbox, FAILING_EXTENSION, FAKE_MODEL, type PiSandbox } from './piSandbox';
import { apiCall } from '../../helpers/server/apiCall';

/**
 * In a process of its own (`npm start`, configured only through pi's PI_CODING_AGENT_DIR), because under
 * mocha an unhandled rejection never ends the process: mocha listens for them itself.
 */
describe('pi crash containment: an extension failing in its event handlers takes down neither the daemon nor other threads', function () {
  this.timeout(60_000);
  let model: FakeModelServer;
  let failing: PiSandbox;
  let healthy: PiSandbox;
  let dataDir: string;
  let running: StartedProcess | undefined;
  let stderr = '';

  before(async () => {
    model = await startFakeModelServer(
      scriptByPrompt({
        'Run the failing extension': [{ kind: 'text', chunks: ['Still ', 'answered.'] }],
        'Say hello': [{ kind: 'text', chunks: ['Hello ', 'there.'] }],
      }),
    );
    failing = createPiSandbox({ baseUrl: model.baseUrl, extensions: { 'failing.ts': FAILING_EXTENSION } });
    healthy = createPiSandbox({ baseUrl: model.baseUrl });
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'ats-crash-'));
  });
  after(async () => {
    await running?.stop();
    await model.close();
    failing.remove();
    healthy.remove();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('a thread whose extension throws, rejects and leaves a rejection unhandled, beside a thread running a normal turn: both complete and the daemon keeps serving', async () => {
    running = await npmStart(['--port', '0', '--data-dir', dataDir], {
      ATS_TOKEN: TEST_TOKEN,
      ATS_AGENT_PROVIDERS: 'pi',
      PI_CODING_AGENT_DIR: failing.agentDir,
    });
    running.child.stderr!.on('data', (chunk) => (stderr += chunk));
    const api = (pathname: string, body?: unknown) => apiCall(running!.url, TEST_TOKEN, pathname, body);
    const [host] = await api('/hosts');
    const threadIn = async (folder: string, prompt: string) => {
      const project = await api('/projects', {
        name: path.basename(folder),
        source: { type: 'local_path', path: folder, hostId: host.id },
      });
      return api('/threads', { projectId: project.id, provider: 'pi', model: FAKE_MODEL, title: prompt, prompt });
    };
    const completedTurns = (threadId: string, count: number) =>
      eventually(
        async () => {
          const events: Array<{ type: string; data: any }> = await api(`/threads/${threadId}/events?limit=1000`);
          const completed = events.filter((event) => event.type === 'turn/completed');
          return completed.length >= count ? { events, completed } : undefined;
        },
        `${count} completed turns in ${threadId}`,
        20_000,
      );

    const [broken, normal] = await Promise.all([
      threadIn(failing.projectDir, 'Run the failing extension'),
      threadIn(healthy.projectDir, 'Say hello'),
    ]);
    const [brokenTurn, normalTurn] = await Promise.all([completedTurns(broken.id, 1), completedTurns(normal.id, 1)]);
    expect(normalTurn.completed[0].data.status).to.equal('completed');
    expect(
      normalTurn.events.find((event) => event.type === 'item/completed' && event.data.item.type === 'agentMessage')!.data.item.text,
    ).to.equal('Hello there.');
    expect(brokenTurn.completed[0].data.status).to.equal('completed');

    // Each failure was caught and logged, the unhandled one by the provider's process-wide guard.
    await eventually(
      () => (stderr.includes('extension left a rejection unhandled') ? true : undefined),
      'the unhandled rejection logged',
      10_000,
    );
    expect(stderr).to.contain('extension threw in agent_start').and.contain('extension rejected in message_end');
    expect(stderr).to.contain('unhandled rejection');

    // Still the same process, still serving: both threads take another turn.
    await Promise.all([
      api(`/threads/${broken.id}/messages`, { prompt: 'Run the failing extension' }),
      api(`/threads/${normal.id}/messages`, { prompt: 'Say hello' }),
    ]);
    const [brokenAgain, normalAgain] = await Promise.all([completedTurns(broken.id, 2), completedTurns(normal.id, 2)]);
    expect([brokenAgain.completed[1].data.status, normalAgain.completed[1].data.status]).to.deep.equal(['completed', 'completed']);
    expect(running.child.exitCode).to.equal(null);
  });
});
