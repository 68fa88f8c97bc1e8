import { expect } from 'chai';
import path from 'node:path';
import type { AgentProvider } from '../../src/daemon/providers/agentProvider';
import { agentEnd, agentStart, sdk } from '../helpers/server/frames';
import { fakeProvider } from '../helpers/fakes/provider';
import { summariseRow } from '../helpers/pipeline/ruleCases';
import { eventually } from '../helpers/server/eventually';
import { rpc, startTestServer, type TestServer } from '../helpers/server/harness';
import { suiteTempDirs } from '../helpers/temp/suiteDirs';

describe('server: threads', () => {
  let t: TestServer;
  let projectId: string;
  let folder: string;
  const provider = fakeProvider('fake');

  /** Polls the events route until `done(types)`; the agent's frames are stored asynchronously to the prompt. */
  async function eventsUntil(threadId: string, done: (types: string[]) => boolean): Promise<{ type: string; data: any }[]> {
    for (let attempt = 0; attempt < 200; attempt++) {
      const events = await t.json(`/threads/${threadId}/events?limit=1000`);
      if (done(events.map((e: { type: string }) => e.type))) return events;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error('events never arrived');
  }
  const count = (types: string[], type: string) => types.filter((candidate) => candidate === type).length;

  before(async () => {
    t = await startTestServer({ providers: [provider] });
    folder = await tempDir('ats-threads-');
    projectId = (await t.json('/projects', { body: { name: 'p', source: { type: 'local_path', path: folder, hostId: t.server.hostId } } }))
      .id;
  });
  after(() => t.close());

  const tempDir = suiteTempDirs();

  it('creates a thread (thr_ id) in the project environment, idle, with runtime (spec 2.4)', async () => {
    const thread = await t.json('/threads', {
      body: { projectId, provider: 'fake', model: 'fake/model', title: 'first', permissionMode: 'accept-edits' },
    });
    expect(thread.id).to.match(/^thr_/);
    expect(thread).to.deep.include({ projectId, hostId: t.server.hostId, status: 'idle', permissionMode: 'accept-edits' });
    expect(thread.runtime).to.deep.equal({
      displayStatus: 'idle',
      hostReconnectGraceExpiresAt: null,
      activity: 'idle',
      pendingApprovalIds: [],
    });
    // No agent at creation (issue 28): it starts with the first prompt, which names its session from then on.
    expect(provider.opened.find((o) => o.threadId === thread.id)).to.equal(undefined);
    expect(thread.providerThreadId).to.equal(thread.id);
    expect(await t.json(`/threads/${thread.id}`)).to.deep.equal(thread);
    const listed = await t.json(`/threads?projectId=${projectId}`);
    expect(listed.map((x: { id: string }) => x.id)).to.include(thread.id);
    await t.json(`/threads/${thread.id}/messages`, { body: { prompt: 'hi' } });
    expect(provider.opened.find((o) => o.threadId === thread.id)).to.deep.include({
      cwd: folder,
      model: 'fake/model',
      permissionMode: 'accept-edits',
    });
    expect((await t.json(`/threads/${thread.id}`)).providerThreadId).to.equal(`session-${thread.id}`);
  });

  it('runs the prompt given at creation as a client-started turn that completes (E5)', async () => {
    const thread = await t.json('/threads', { body: { projectId, provider: 'fake', model: 'fake/model', title: 't', prompt: 'hello' } });
    const events = await eventsUntil(thread.id, (types) => types.includes('turn/completed'));
    const types = events.map((e) => e.type);
    expect(types[0]).to.equal('turn/started');
    expect(count(types, 'turn/completed')).to.equal(1);
    expect(events.find((e) => e.type === 'turn/completed')!.data.status).to.equal('completed');
    expect(events[0].data.providerThreadId).to.equal(`session-${thread.id}`);
    // The first prompt runs in the background; the record names the session once the host answered it.
    const view = await eventually(async () => {
      const read = await t.json(`/threads/${thread.id}`);
      return read.status === 'idle' && read.providerThreadId === `session-${thread.id}` ? read : undefined;
    }, 'the session on the record');
    expect(view).to.deep.include({ status: 'idle', providerThreadId: `session-${thread.id}` });
    expect(provider.opened.find((o) => o.threadId === thread.id)).to.deep.include({ model: 'fake/model', cwd: folder });
  });

  it('POST /threads/:id/messages starts a new turn (202); the thread is active while it runs', async () => {
    const thread = await t.json('/threads', { body: { projectId, provider: 'fake', model: 'fake/model', title: 't' } });
    const response = await t.api(`/threads/${thread.id}/messages`, { body: { prompt: 'hang' } });
    expect(response.status).to.equal(202);
    expect((await response.json()) as any).to.deep.equal({ threadId: thread.id, followUp: false });
    await eventsUntil(thread.id, (types) => types.includes('item/agentMessage/delta'));
    const active = await t.json(`/threads/${thread.id}`);
    expect(active.status).to.equal('active');
    expect(active.runtime.displayStatus).to.equal('active');
  });

  it('stop ends a streaming turn exactly once, with status interrupted', async () => {
    const thread = await t.json('/threads', { body: { projectId, provider: 'fake', model: 'fake/model', title: 't', prompt: 'hang' } });
    await eventsUntil(thread.id, (types) => types.includes('item/agentMessage/delta'));
    const stopped = await t.json(`/threads/${thread.id}/stop`, { method: 'POST' });
    expect(stopped.threadId).to.equal(thread.id);
    // The pipeline takes frames in order, so once a later frame is answered the aborted run's agent_end and
    // settle signal are stored too: neither may complete the turn a second time.
    const socket = await t.intake();
    await rpc(socket, sdk(thread.id, { type: 'turn_start' }, 99));
    socket.close();
    const events = await t.json(`/threads/${thread.id}/events?limit=1000`);
    const completions = events.filter((e: { type: string }) => e.type === 'turn/completed');
    expect(completions).to.have.length(1);
    expect(completions[0].data.status).to.equal('interrupted');
    expect((await t.json(`/threads/${thread.id}`)).status).to.equal('idle');
  });

  it('stop on a thread whose agent runs elsewhere (intake): the turn ends interrupted when that run ends', async () => {
    const thread = await t.json('/threads', { body: { projectId, provider: 'pi', model: 'fake/model', title: 'intake only' } });
    const socket = await t.intake();
    await rpc(socket, agentStart(thread.id, 1));
    const stopped = await t.json(`/threads/${thread.id}/stop`, { method: 'POST' });
    expect(stopped.seqs).to.deep.equal([]); // nothing here can abort a run streaming from another process
    expect((await t.json(`/threads/${thread.id}`)).status).to.equal('active');
    await rpc(socket, agentEnd(thread.id, 'partial', 2));
    socket.close();
    const completions = (await t.json(`/threads/${thread.id}/events`)).filter((e: { type: string }) => e.type === 'turn/completed');
    expect(completions).to.have.length(1);
    expect(completions[0].data.status).to.equal('interrupted');
    expect((await t.json(`/threads/${thread.id}`)).status).to.equal('idle');
  });

  it('stop on an idle thread stores nothing', async () => {
    const thread = await t.json('/threads', { body: { projectId, provider: 'fake', model: 'fake/model', title: 'idle' } });
    expect(await t.json(`/threads/${thread.id}/stop`, { method: 'POST' })).to.deep.equal({ threadId: thread.id, seqs: [] });
    expect(await t.json(`/threads/${thread.id}/events`)).to.deep.equal([]);
  });

  it('refuses a prompt for a provider the host does not run: 409 no_agent_provider, and stores no thread', async () => {
    const before = (await t.json('/threads')).length;
    const response = await t.api('/threads', { body: { projectId, provider: 'pi', model: 'm', title: 't', prompt: 'hi' } });
    expect(response.status).to.equal(409);
    expect(((await response.json()) as any).code).to.equal('no_agent_provider');
    expect(await t.json('/threads')).to.have.length(before);
    const intakeOnly = await t.json('/threads', { body: { projectId, provider: 'pi', model: 'm', title: 't' } });
    expect(intakeOnly.providerThreadId).to.equal(intakeOnly.id); // no agent runs here, so no session names it
    expect(provider.opened.map((o) => o.threadId)).not.to.include(intakeOnly.id);
    const prompt = await t.api(`/threads/${intakeOnly.id}/messages`, { body: { prompt: 'hi' } });
    expect(prompt.status).to.equal(409);
    expect(((await prompt.json()) as any).code).to.equal('no_agent_provider');
  });

  it('answers 400 for a create body failing its schema, 404 for an unknown project, environment or thread', async () => {
    const bad = await t.api('/threads', { body: { projectId, provider: 'fake', title: 't' } });
    expect(bad.status).to.equal(400);
    expect(((await bad.json()) as any).issues.map((i: { path: string[] }) => i.path.join('.'))).to.include('model');
    const cases: [string, Record<string, unknown>, string][] = [
      ['/threads', { projectId: 'proj_nope', provider: 'fake', model: 'm', title: 't' }, 'project_not_found'],
      ['/threads', { projectId, environmentId: 'env_nope', provider: 'fake', model: 'm', title: 't' }, 'environment_not_found'],
      ['/threads/thr_nope/messages', { prompt: 'x' }, 'thread_not_found'],
      ['/threads/thr_nope/stop', {}, 'thread_not_found'],
    ];
    for (const [route, body, code] of cases) {
      const response = await t.api(route, { body });
      expect(response.status, route).to.equal(404);
      expect(((await response.json()) as any).code).to.equal(code);
    }
    expect((await t.api('/threads/thr_nope')).status).to.equal(404);
    expect((await t.api('/threads?projectId=')).status).to.equal(400);
  });
});

describe('server: a thread whose agent cannot start or refuses its first prompt (issues 12, 29)', () => {
  let t: TestServer;
  let projectId: string;
  const NO_KEY =
    'No API key for the "fake" models on this host. Add {"fake": {"type": "api_key", "key": "…"}} to ~/.pi/agent/auth.json on that host';
  const UNKNOWN_MODEL = 'unknown model "broken/model": add it to ~/.pi/agent/models.json';
  // `broken` never starts (unknown model); `keyless` starts but refuses every prompt, as pi does without a key.
  const broken: AgentProvider = { id: 'broken', openThread: () => Promise.reject(new Error(UNKNOWN_MODEL)) };
  const keyless: AgentProvider = {
    id: 'keyless',
    async openThread({ threadId, emit }) {
      return {
        providerThreadId: `session-${threadId}`,
        async prompt(prompt) {
          emit({ jsonrpc: '2.0', method: 'keyless/prompt/started', params: { threadId, prompt } });
          emit({ jsonrpc: '2.0', method: 'keyless/prompt/settled', params: { threadId, error: { message: NO_KEY } } });
          throw new Error(NO_KEY);
        },
        stop: async () => undefined,
        dispose: async () => undefined,
      };
    },
  };
  /** The thread's rows as `type[:detail]`, once `count` turns have completed. */
  const rowsAfterTurns = async (threadId: string, count: number) =>
    eventually(async () => {
      const rows: Array<{ type: string; data: any }> = await t.json(`/threads/${threadId}/events?limit=1000`);
      if (rows.filter((row) => row.type === 'turn/completed').length < count) return undefined;
      return rows.map(summariseRow);
    }, `${count} completed turns`);
  const refusedTurn = (prompt: string, reason: string) => [
    'turnStarted:client',
    `userMessageStarted:${prompt}`,
    `userMessageCompleted:${prompt}`,
    `turnCompleted:failed(${reason})`,
  ];

  before(async () => {
    t = await startTestServer({ providers: [broken, keyless] });
    const folder = await tempDir('ats-threads-agent-');
    projectId = (await t.json('/projects', { body: { name: 'p', source: { type: 'local_path', path: folder, hostId: t.server.hostId } } }))
      .id;
  });
  after(() => t.close());
  const tempDir = suiteTempDirs();

  for (const [provider, model, reason] of [
    ['keyless', 'keyless/model', `the keyless agent refused the prompt: ${NO_KEY}`],
    ['broken', 'broken/model', `the broken agent could not start: ${UNKNOWN_MODEL}`],
  ] as const) {
    it(`POST /threads with a prompt whose agent fails (${provider}) answers 201; the prompt is a userMessage row and its failure one failed turn/completed (issue 29)`, async () => {
      const response = await t.api('/threads', { body: { projectId, provider, model, title: 't', prompt: 'hello' } });
      expect(response.status).to.equal(201);
      const thread = (await response.json()) as any;
      expect(thread.id).to.match(/^thr_/);
      expect(response.headers.get('location')).to.equal(`/api/v1/threads/${thread.id}`);
      // The first prompt runs in the background (issue 28): the answer does not wait for the agent.
      expect(thread).to.deep.include({ provider, model });

      const cause = reason.slice(reason.indexOf(': ') + 2);
      expect(await rowsAfterTurns(thread.id, 1)).to.deep.equal(refusedTurn('hello', cause));
      // The failure is the thread's state, for a client that reads it (and a list that marks it).
      const read = await eventually(async () => {
        const current = await t.json(`/threads/${thread.id}`);
        return current.agentError ? current : undefined;
      }, 'agentError on the record');
      expect(read).to.include({ id: thread.id, status: 'idle', lastTurnStatus: 'failed' });
      expect(read.agentError).to.deep.include({ code: 'agent_failed', message: reason });
      // A later prompt is a request of its own, and still says why it cannot run; it is in the log too.
      const again = await t.api(`/threads/${thread.id}/messages`, { body: { prompt: 'again' } });
      expect(again.status).to.equal(502);
      expect(((await again.json()) as any).code).to.equal('agent_failed');
      expect(await rowsAfterTurns(thread.id, 2)).to.deep.equal([...refusedTurn('hello', cause), ...refusedTurn('again', cause)]);
    });
  }

  it('POST /threads without a prompt whose agent cannot start: 201 with no agent tried; the first prompt is 502 and a failed turn holding it', async () => {
    const response = await t.api('/threads', { body: { projectId, provider: 'broken', model: 'broken/model', title: 't' } });
    expect(response.status).to.equal(201);
    const thread = (await response.json()) as any;
    expect(thread.agentError).to.equal(undefined);
    expect(thread.lastTurnStatus).to.equal(null);
    expect(await t.json(`/threads/${thread.id}/events`)).to.deep.equal([]);
    const prompted = await t.api(`/threads/${thread.id}/messages`, { body: { prompt: 'hello' } });
    expect(prompted.status).to.equal(502);
    // Stored before the refusal was answered.
    expect((await t.json(`/threads/${thread.id}/events`)).map(summariseRow)).to.deep.equal(refusedTurn('hello', UNKNOWN_MODEL));
  });

  it('a kept-running thread whose agent cannot start says why in one provider/error row, not once per try', async () => {
    const thread = await t.json('/threads', { body: { projectId, provider: 'broken', model: 'broken/model', title: 't' } });
    for (let attempt = 0; attempt < 2; attempt++) {
      await t.json(`/threads/${thread.id}`, { method: 'PATCH', body: { keepAgentRunning: attempt === 0 } });
    }
    await t.json(`/threads/${thread.id}`, { method: 'PATCH', body: { keepAgentRunning: true } });
    const rows = await eventually(async () => {
      const found: Array<{ type: string; data: any }> = await t.json(`/threads/${thread.id}/events`);
      return found.some((row) => row.type === 'provider/error') ? found : undefined;
    }, 'a provider/error row');
    expect(rows.filter((row) => row.type === 'provider/error').map((row) => row.data.message)).to.deep.equal([UNKNOWN_MODEL]);
  });
});
