import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { scriptByPrompt, startFakeModelServer, type FakeModelServer } from '../../helpers/fakes/modelServer';
import { eventually } from '../../helpers/server/eventually';
import { TEST_TOKEN } from '../../helpers/server/harness';
import { npmStart, type StartedProcess } from '../../helpers/server/process';
import { createPiSandbox, TIMER_THROW_EXTENSION, FAKE_MODEL, type PiSandbox } from '../pi/piSandbox';
import { apiCall } from '../../helpers/server/apiCall';

type Row = { type: string; data: any };

/**
 * Issue 12: an agent's crash ends only its own thread's run. In a real `npm start` (the isolated pi provider
 * is what it runs), one thread's extension throws from a timer, which nothing can catch, while two other
 * threads stream.
 */
describe("agent crash isolation: an extension throwing from a timer ends only its own thread's run", function () {
  this.timeout(120_000);
  let model: FakeModelServer;
  let crashing: PiSandbox;
  let streamingB: PiSandbox;
  let streamingC: PiSandbox;
  let dataDir: string;
  let running: StartedProcess | undefined;
  let stderr = '';

  before(async () => {
    model = await startFakeModelServer(
      scriptByPrompt({
        'Remember me': [{ kind: 'text', chunks: ['Noted.'] }],
        'Crash while you think': [{ kind: 'slow', chunks: ['Thinking'], rest: [' never.'] }],
        'What did I say': [{ kind: 'text', chunks: ['You said ', 'remember me.'] }],
        'Stream B': [{ kind: 'slow', chunks: ['B streams'], rest: [' and ends.'] }],
        'Stream C': [{ kind: 'slow', chunks: ['C streams'], rest: [' and ends.'] }],
      }),
    );
    crashing = createPiSandbox({ baseUrl: model.baseUrl, extensions: { 'timer-throw.ts': TIMER_THROW_EXTENSION } });
    streamingB = createPiSandbox({ baseUrl: model.baseUrl });
    streamingC = createPiSandbox({ baseUrl: model.baseUrl });
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'ats-isolation-'));
  });
  after(async () => {
    await running?.stop();
    await model.close();
    [crashing, streamingB, streamingC].forEach((sandbox) => sandbox.remove());
    await rm(dataDir, { recursive: true, force: true });
  });

  it('the crash is reported with its reason and its turn completes failed with it, the two streaming threads complete, and its next prompt runs a fresh agent on the same session', async () => {
    running = await npmStart(['--port', '0', '--data-dir', dataDir], {
      ATS_TOKEN: TEST_TOKEN,
      ATS_AGENT_PROVIDERS: 'pi',
      ATS_TURN_GRACE_MS: '500',
      PI_CODING_AGENT_DIR: crashing.agentDir,
    });
    running.child.stderr!.on('data', (chunk) => (stderr += chunk));
    const api = (pathname: string, body?: unknown) => apiCall(running!.url, TEST_TOKEN, pathname, body);
    const [host] = await api('/hosts');
    const threadIn = async (folder: string, prompt: string) => {
      const project = await api('/projects', {
        name: path.basename(path.dirname(folder)),
        source: { type: 'local_path', path: folder, hostId: host.id },
      });
      return api('/threads', { projectId: project.id, provider: 'pi', model: FAKE_MODEL, title: prompt, prompt });
    };
    const rowsOf = async (threadId: string): Promise<Row[]> => api(`/threads/${threadId}/events?limit=1000`);
    const rowsWhen = (threadId: string, what: string, done: (rows: Row[]) => boolean) =>
      eventually(
        async () => {
          const rows = await rowsOf(threadId);
          return done(rows) ? rows : undefined;
        },
        what,
        60_000,
      );
    const completed = (rows: Row[]) => rows.filter((row) => row.type === 'turn/completed');
    const streaming = (rows: Row[]) => rows.some((row) => row.type === 'item/agentMessage/delta');

    const crash = await threadIn(crashing.projectDir, 'Remember me');
    await rowsWhen(crash.id, 'the first turn of the crashing thread', (rows) => completed(rows).length === 1);
    const [b, c] = await Promise.all([threadIn(streamingB.projectDir, 'Stream B'), threadIn(streamingC.projectDir, 'Stream C')]);
    await Promise.all([rowsWhen(b.id, 'B streaming', streaming), rowsWhen(c.id, 'C streaming', streaming)]);

    await api(`/threads/${crash.id}/messages`, { prompt: 'Crash while you think' });
    const reason = 'the agent process for this thread exited (code 1): Error: extension timer exploded';
    await eventually(
      () => (stderr.includes(`thread ${crash.id}: ${reason}`) ? true : undefined),
      'the crash reported in the daemon log',
      30_000,
    );
    // Rule 1 of the issue: no agent_end will come, so the dead run's turn completes failed with the reason.
    const dead = await rowsWhen(crash.id, 'the crashed turn completed', (all) => completed(all).length === 2);
    expect(completed(dead)[1]!.data).to.deep.include({ status: 'failed', error: { message: reason } });

    // B and C stream on, untouched, and finish with their whole answers once the model sends the rest.
    model.releaseSlow();
    for (const [thread, letter] of [
      [b, 'B'],
      [c, 'C'],
    ] as const) {
      const rows = await rowsWhen(thread.id, `${letter} completed`, (all) => completed(all).length === 1);
      expect(completed(rows)[0]!.data.status).to.equal('completed');
      expect(rows.find((row) => row.type === 'item/completed' && row.data.item.type === 'agentMessage')!.data.item.text).to.equal(
        `${letter} streams and ends.`,
      );
    }

    // The next prompt starts a fresh agent on the same pi session: the model sees the first exchange.
    const next = await fetch(`${running.url}/api/v1/threads/${crash.id}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'What did I say' }),
    });
    expect(next.status).to.equal(202);
    const rows = await rowsWhen(crash.id, 'the answer of the fresh agent', (all) =>
      all.some((row) => row.type === 'item/completed' && row.data.item.text === 'You said remember me.'),
    );
    const request = model.requests.find((candidate) => JSON.stringify(candidate.messages).includes('What did I say'))!;
    expect(JSON.stringify(request.messages)).to.contain('Remember me').and.contain('Noted.');
    // The session the first run named (the 201 answered before any agent started: issue 28).
    expect((await api(`/threads/${crash.id}`)).providerThreadId).to.equal(rows[0]!.data.providerThreadId);
    expect(new Set(rows.map((row) => row.data.providerThreadId)).size).to.equal(1);
    // The crashed run wrote nothing after the crash: its answer never went on.
    expect(rows.some((row) => row.type === 'item/agentMessage/delta' && row.data.delta === ' never.')).to.equal(false);
    expect(running.child.exitCode).to.equal(null);
  });
});
