import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { RUN_LOST_MESSAGE } from '../../src/turns/ruleInput';
import { eventually } from '../helpers/server/eventually';
import { agentStart, assistantStart, textDelta } from '../helpers/server/frames';
import { rpc } from '../helpers/server/harness';
import { apiCall } from '../helpers/server/apiCall';

const REPO = path.resolve(__dirname, '..', '..');
const TOKEN = 'turns-token-0123456789abcdef';

interface ServerProcess {
  child: ChildProcess;
  url: string;
  exited: Promise<unknown>;
}

/** The server as its own process (fake `pi` provider), a direct child so a SIGKILL leaves no orphan behind. */
function startServerProcess(dataDir: string): Promise<ServerProcess> {
  const child = spawn(
    process.execPath,
    [
      '-r',
      'ts-node/register/transpile-only',
      'test/helpers/fakes/providerServer.ts',
      '--port',
      '0',
      '--data-dir',
      dataDir,
      '--token',
      TOKEN,
      '--turn-grace-ms',
      '300',
    ],
    { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) resolve({ child, url: match[1]!, exited });
    });
    void exited.then(() => reject(new Error(`server exited before listening: ${stderr}`)));
  });
}

describe('turns after the server process dies mid-run (issue 12, E4/E5: turns never get stuck)', function () {
  this.timeout(90_000);
  let dataDir: string;
  let folder: string;
  let running: ServerProcess | undefined;

  before(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'ats-turns-restart-'));
    folder = await mkdtemp(path.join(os.tmpdir(), 'ats-turns-project-'));
  });
  after(async () => {
    if (running && running.child.exitCode === null && running.child.signalCode === null) {
      running.child.kill('SIGTERM');
      await running.exited;
    }
    await rm(dataDir, { recursive: true, force: true });
    await rm(folder, { recursive: true, force: true });
  });

  const api = (pathname: string, body?: unknown) => apiCall(running!.url, TOKEN, pathname, body);
  const events = (threadId: string): Promise<any[]> => api(`/threads/${threadId}/events?limit=1000`);
  const completions = async (threadId: string) => (await events(threadId)).filter((row) => row.type === 'turn/completed');
  const intake = async () => {
    const socket = new WebSocket(`${running!.url.replace('http', 'ws')}/api/v1/intake`, { headers: { authorization: `Bearer ${TOKEN}` } });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    return socket;
  };

  it('after a SIGKILL mid-run, the dead turn closes interrupted before anything else, stop finds nothing open, and the next prompt is a new turn', async () => {
    running = await startServerProcess(dataDir);
    const [host] = await api('/hosts');
    const project = await api('/projects', { name: 'demo', source: { type: 'local_path', path: folder, hostId: host.id } });
    const thread = await api('/threads', { projectId: project.id, provider: 'pi', model: 'fake/model', title: 'killed' });
    // An intake-only thread of the same host, whose external agent is mid-run when the server dies.
    const intakeThread = await api('/threads', { projectId: project.id, provider: 'other', model: 'fake/model', title: 'intake' });
    expect((await api(`/threads/${thread.id}/messages`, { prompt: 'hang' })).followUp).to.equal(false);
    const socket = await intake();
    await rpc(socket, agentStart(intakeThread.id, 1));
    await rpc(socket, assistantStart(intakeThread.id, 2));
    await rpc(socket, textDelta(intakeThread.id, 'half', 3));
    socket.close();
    const before = await eventually(async () => {
      const rows = await events(thread.id);
      return rows.some((row) => row.type === 'item/agentMessage/delta') ? rows : undefined;
    }, 'the hanging run to stream');
    expect((await api(`/threads/${thread.id}`)).status).to.equal('active');

    running.child.kill('SIGKILL');
    await running.exited;
    running = await startServerProcess(dataDir);

    expect((await api(`/threads/${thread.id}`)).status).to.equal('idle');
    const after = await events(thread.id);
    const closing = after.slice(before.length);
    expect(closing.map((row) => row.type)).to.deep.equal(['item/completed', 'turn/completed']);
    expect(closing[1].turnId).to.equal(before[0].turnId);
    expect(closing[1].data).to.deep.include({ status: 'interrupted', error: { message: RUN_LOST_MESSAGE } });

    // The stop aborts the new, idle session: nothing was open, nothing is stored, nothing stays active.
    expect((await api(`/threads/${thread.id}/stop`, {})).seqs).to.deep.equal([]);
    expect((await api(`/threads/${thread.id}`)).status).to.equal('idle');

    // The next prompt starts a new turn with its own answer; the dead turn completed exactly once.
    expect((await api(`/threads/${thread.id}/messages`, { prompt: 'hello' })).followUp).to.equal(false);
    const turns = await eventually(async () => {
      const done = await completions(thread.id);
      return done.length === 2 ? done : undefined;
    }, 'the new turn to complete');
    expect(turns.map((row) => row.data.status)).to.deep.equal(['interrupted', 'completed']);
    expect(turns[1].turnId).to.not.equal(turns[0].turnId);
    const rows = await events(thread.id);
    expect(rows.map((row) => row.seq)).to.deep.equal(rows.map((_, i) => i + 1));
    const answer = rows.filter((row) => row.type === 'item/completed' && row.turnId === turns[1].turnId).at(-1);
    expect(answer.data.item.text).to.equal('echo: hello');

    // The intake thread's dead turn is closed too; what its agent still sends stays outside that turn.
    expect((await api(`/threads/${intakeThread.id}`)).status).to.equal('idle');
    const late = await intake();
    const lateAnswer = await rpc(late, textDelta(intakeThread.id, ' more', 4));
    late.close();
    const intakeRows = await events(intakeThread.id);
    const lateRow = intakeRows.find((row) => row.seq === lateAnswer.result.seqs[0]);
    expect(lateRow).to.deep.include({ type: 'provider/unhandled', turnId: null });
    expect(intakeRows.filter((row) => row.type === 'turn/completed').map((row) => row.data.status)).to.deep.equal(['interrupted']);
  });

  it('a stop whose run never reports its end, and a settle with an error, close their turns after the grace (intake agents that died)', async () => {
    running ??= await startServerProcess(dataDir);
    const [host] = await api('/hosts');
    const project = await api('/projects', { name: 'graces', source: { type: 'local_path', path: folder, hostId: host.id } });
    const stopped = await api('/threads', { projectId: project.id, provider: 'other', model: 'fake/model', title: 'stopped' });
    const failed = await api('/threads', { projectId: project.id, provider: 'other', model: 'fake/model', title: 'failed' });
    const socket = await intake();
    await rpc(socket, agentStart(stopped.id, 1));
    await rpc(socket, { jsonrpc: '2.0', method: 'pi/prompt/started', params: { threadId: failed.id }, id: 2 });
    await rpc(socket, agentStart(failed.id, 3));
    await rpc(socket, {
      jsonrpc: '2.0',
      method: 'pi/prompt/settled',
      params: { threadId: failed.id, error: { message: 'the agent crashed' } },
      id: 4,
    });
    socket.close();
    await api(`/threads/${stopped.id}/stop`, {});

    const stoppedDone = await eventually(async () => (await completions(stopped.id))[0], 'the stopped turn to close');
    expect(stoppedDone.data.status).to.equal('interrupted');
    const failedDone = await eventually(async () => (await completions(failed.id))[0], 'the failed turn to close');
    expect(failedDone.data).to.deep.include({ status: 'failed', error: { message: 'the agent crashed' } });
    for (const id of [stopped.id, failed.id]) {
      expect((await api(`/threads/${id}`)).status).to.equal('idle');
      expect(await completions(id)).to.have.lengthOf(1);
    }
  });
});
