import { expect } from 'chai';
import path from 'node:path';
import { askingProvider, type AskingProvider } from '../../helpers/fakes/askingProvider';
import { eventually } from '../../helpers/server/eventually';
import { agentStart } from '../../helpers/server/frames';
import { rpc, startTestServer, type TestServer } from '../../helpers/server/harness';
import { completedTurns, eventsUntil, type ThreadEvent } from '../../helpers/server/threadRows';
import { suiteTempDirs } from '../../helpers/temp/suiteDirs';

describe('server: an agent’s questions answered over HTTP (approvals, permission modes)', () => {
  let t: TestServer;
  let provider: AskingProvider;
  let folder: string;
  let projectId: string;
  const tempDir = suiteTempDirs();

  before(async () => {
    provider = askingProvider();
    t = await startTestServer({ providers: [provider] });
    folder = await tempDir('ats-approvals-');
    const project = await t.json('/projects', {
      body: { name: 'p', source: { type: 'local_path', path: folder, hostId: t.server.hostId } },
    });
    projectId = project.id;
  });
  after(() => t.close());

  const newThread = (server: TestServer, body: Record<string, unknown> = {}) =>
    server.json('/threads', { body: { projectId, provider: 'asking', model: 'fake/model', title: 'asks', ...body } });

  /**
   * Prompts the thread and waits until its question shows in the thread's runtime; returns the view. The host
   * knows the question the moment it is asked, its turn once the turn's first row is stored: both are awaited.
   */
  async function promptAndAwaitQuestion(threadId: string, prompt = 'touch x', server = t) {
    await server.json(`/threads/${threadId}/messages`, { body: { prompt } });
    return eventually(async () => {
      const view = await server.json(`/threads/${threadId}`);
      return view.runtime.pendingApprovalIds.length > 0 && view.status === 'active' ? view : undefined;
    }, 'the question');
  }
  const decisionsOf = (threadId: string) => provider.decisions.filter((d) => d.threadId === threadId).map((d) => d.decision);
  const decisionOf = (threadId: string) => eventually(() => decisionsOf(threadId)[0], 'the agent’s decision');
  const answer = (threadId: string, approvalId: string, optionId: string, server = t) =>
    server.api(`/threads/${threadId}/approvals/${approvalId}`, { body: { optionId } });
  const idle = (threadId: string, server = t) =>
    eventually(async () => ((await server.json(`/threads/${threadId}`)).status === 'idle' ? true : undefined), 'an idle thread');
  const approvalRows = (events: ThreadEvent[]) => events.filter((event) => event.type.startsWith('approval/'));

  it('allow: 200 with the answer; the agent gets the option and finishes its turn', async () => {
    const thread = await newThread(t, { permissionMode: 'ask' });
    const waiting = await promptAndAwaitQuestion(thread.id);
    const [approvalId] = waiting.runtime.pendingApprovalIds;
    expect(approvalId).to.match(/^apr_/);
    const response = await answer(thread.id, approvalId, 'allow-once');
    expect(response.status).to.equal(200);
    expect(await response.json()).to.deep.equal({ approvalId, optionId: 'allow-once', optionKind: 'allow_once', decidedBy: 'user' });
    expect(await decisionOf(thread.id)).to.deep.equal({
      outcome: 'selected',
      optionId: 'allow-once',
      optionKind: 'allow_once',
      decidedBy: 'user',
    });
    const events = await eventsUntil(t, thread.id, completedTurns(1));
    expect(events.find((e) => e.type === 'turn/completed')!.data.status).to.equal('completed');
    expect((await t.json(`/threads/${thread.id}`)).runtime).to.deep.include({ activity: 'idle', pendingApprovalIds: [] });
  });

  it('reject: the agent gets the reject option', async () => {
    const thread = await newThread(t, { permissionMode: 'ask' });
    const [approvalId] = (await promptAndAwaitQuestion(thread.id)).runtime.pendingApprovalIds;
    expect(await (await answer(thread.id, approvalId, 'reject')).json()).to.include({ optionKind: 'reject_once', decidedBy: 'user' });
    expect(await decisionOf(thread.id)).to.include({ outcome: 'selected', optionId: 'reject', optionKind: 'reject_once' });
  });

  it('answers 400 unknown_option (with the offered ids), 404 for an unknown question, 409 for a second answer', async () => {
    const thread = await newThread(t, { permissionMode: 'ask' });
    const [approvalId] = (await promptAndAwaitQuestion(thread.id)).runtime.pendingApprovalIds;
    const notOffered = await answer(thread.id, approvalId, 'maybe');
    expect(notOffered.status).to.equal(400);
    expect(await notOffered.json()).to.deep.include({ code: 'unknown_option', optionIds: ['allow-once', 'allow-always', 'reject'] });
    const unknown = await answer(thread.id, 'apr_0000', 'allow-once');
    expect(unknown.status).to.equal(404);
    expect(((await unknown.json()) as any).code).to.equal('approval_not_found');
    expect((await answer(thread.id, approvalId, 'allow-always')).status).to.equal(200);
    const again = await answer(thread.id, approvalId, 'reject');
    expect(again.status).to.equal(409);
    expect(((await again.json()) as any).code).to.equal('approval_already_answered');
    expect(decisionsOf(thread.id)).to.have.length(1);
    expect((await answer('thr_nope', approvalId, 'reject')).status).to.equal(404);
  });

  it('stop while a question waits: it resolves cancelled (stopped by the user) and the turn ends interrupted once', async () => {
    const thread = await newThread(t, { permissionMode: 'ask' });
    const [approvalId] = (await promptAndAwaitQuestion(thread.id)).runtime.pendingApprovalIds;
    await t.json(`/threads/${thread.id}/stop`, { method: 'POST' });
    expect(await decisionOf(thread.id)).to.deep.equal({ outcome: 'cancelled', decidedBy: 'cancelled', reason: 'stopped by the user' });
    const events = await eventsUntil(t, thread.id, completedTurns(1));
    const completions = events.filter((e) => e.type === 'turn/completed');
    expect(completions.map((e) => e.data.status)).to.deep.equal(['interrupted']);
    expect((await answer(thread.id, approvalId, 'allow-once')).status).to.equal(409);
  });

  it('runtime.activity: waiting-for-approval while a question waits (displayStatus stays active), working, idle', async () => {
    const thread = await newThread(t, { permissionMode: 'ask' });
    const waiting = await promptAndAwaitQuestion(thread.id);
    expect(waiting.status).to.equal('active');
    expect(waiting.runtime).to.deep.include({ displayStatus: 'active', activity: 'waiting-for-approval' });
    await answer(thread.id, waiting.runtime.pendingApprovalIds[0], 'allow-once');
    await idle(thread.id);
    expect((await t.json(`/threads/${thread.id}`)).runtime).to.deep.include({
      displayStatus: 'idle',
      activity: 'idle',
      pendingApprovalIds: [],
    });
    // A run streaming in through the intake (no agent here) is working, not waiting.
    const intakeOnly = await t.json('/threads', { body: { projectId, provider: 'pi', model: 'fake/model', title: 'intake' } });
    const socket = await t.intake();
    await rpc(socket, agentStart(intakeOnly.id, 1));
    socket.close();
    expect((await t.json(`/threads/${intakeOnly.id}`)).runtime).to.deep.include({ displayStatus: 'active', activity: 'working' });
  });

  it('accept-edits (the default): an edit inside the folder runs without asking; one outside waits for the user', async () => {
    const thread = await newThread(t);
    await t.json(`/threads/${thread.id}/messages`, { body: { prompt: `edit ${path.join(folder, 'src', 'a.ts')}` } });
    expect(await decisionOf(thread.id)).to.deep.equal({
      outcome: 'selected',
      optionId: 'allow-once',
      optionKind: 'allow_once',
      decidedBy: 'policy',
    });
    await eventsUntil(t, thread.id, completedTurns(1));
    const outside = await promptAndAwaitQuestion(thread.id, `edit ${path.join(path.dirname(folder), 'elsewhere.ts')}`);
    expect(outside.runtime.activity).to.equal('waiting-for-approval');
    expect(decisionsOf(thread.id)).to.have.length(1);
    await answer(thread.id, outside.runtime.pendingApprovalIds[0], 'reject');
    await eventually(() => decisionsOf(thread.id)[1], 'the second decision');
  });

  it('full-access is refused (403 mode_not_allowed) on a host that does not allow it, at creation and by PATCH', async () => {
    const before = (await t.json('/threads')).length;
    const created = await t.api('/threads', {
      body: { projectId, provider: 'asking', model: 'fake/model', title: 'x', permissionMode: 'full-access' },
    });
    expect(created.status).to.equal(403);
    expect(((await created.json()) as any).code).to.equal('mode_not_allowed');
    expect(await t.json('/threads')).to.have.length(before);
    const thread = await newThread(t);
    const patched = await t.api(`/threads/${thread.id}`, { method: 'PATCH', body: { permissionMode: 'full-access' } });
    expect(patched.status).to.equal(403);
    expect((await t.json(`/threads/${thread.id}`)).permissionMode).to.equal(undefined);
    const unknownMode = await t.api('/threads', {
      body: { projectId, provider: 'asking', model: 'm', title: 'x', permissionMode: 'yolo' },
    });
    expect(unknownMode.status).to.equal(400);
    expect(((await unknownMode.json()) as any).code).to.equal('invalid_body');
  });

  it('full-access on a host that allows it (allowFullAccess): every question is allowed by policy', async () => {
    const allowing = await startTestServer({ providers: [provider], config: { allowFullAccess: true } });
    try {
      const project = await allowing.json('/projects', {
        body: { name: 'p', source: { type: 'local_path', path: folder, hostId: allowing.server.hostId } },
      });
      const thread = await allowing.json('/threads', {
        body: {
          projectId: project.id,
          provider: 'asking',
          model: 'fake/model',
          title: 'free',
          permissionMode: 'full-access',
          prompt: 'rm -rf /tmp/x',
        },
      });
      expect(thread.permissionMode).to.equal('full-access');
      expect(await decisionOf(thread.id)).to.deep.include({ outcome: 'selected', optionId: 'allow-once', decidedBy: 'policy' });
      await eventsUntil(allowing, thread.id, completedTurns(1));
    } finally {
      await allowing.close();
    }
  });

  it('PATCH permissionMode: 409 thread_busy while a turn runs; while idle the record changes and the agent is told', async () => {
    const thread = await newThread(t, { permissionMode: 'ask' });
    const [approvalId] = (await promptAndAwaitQuestion(thread.id, `edit ${path.join(folder, 'b.ts')}`)).runtime.pendingApprovalIds;
    const busy = await t.api(`/threads/${thread.id}`, { method: 'PATCH', body: { permissionMode: 'accept-edits' } });
    expect(busy.status).to.equal(409);
    expect(((await busy.json()) as any).code).to.equal('thread_busy');
    await answer(thread.id, approvalId, 'allow-once');
    await idle(thread.id);
    const patched = await t.json(`/threads/${thread.id}`, { method: 'PATCH', body: { permissionMode: 'accept-edits' } });
    expect(patched).to.deep.include({ id: thread.id, permissionMode: 'accept-edits', status: 'idle' });
    expect(provider.modes).to.deep.include({ threadId: thread.id, mode: 'accept-edits' });
    expect((await t.json(`/threads/${thread.id}`)).permissionMode).to.equal('accept-edits');
    // The daemon's policy follows at once: the same edit now runs without asking.
    await t.json(`/threads/${thread.id}/messages`, { body: { prompt: `edit ${path.join(folder, 'b.ts')}` } });
    expect((await eventually(() => decisionsOf(thread.id)[1], 'the second decision')).decidedBy).to.equal('policy');
  });

  // The rows below are written by the pipeline's part of issue 27 (branch i27-pipe).
  it('rows: approval/requested with the subject and options, then approval/resolved by the user, inside the turn', async () => {
    const thread = await newThread(t, { permissionMode: 'ask' });
    const [approvalId] = (await promptAndAwaitQuestion(thread.id)).runtime.pendingApprovalIds;
    await answer(thread.id, approvalId, 'allow-once');
    const events = await eventsUntil(t, thread.id, completedTurns(1));
    const [requested, resolved] = approvalRows(events);
    expect(requested).to.deep.include({ type: 'approval/requested' });
    expect(requested!.data).to.deep.include({ approvalId, permissionMode: 'ask' });
    expect(requested!.data.subject).to.deep.include({ kind: 'execute', command: 'touch x' });
    expect(requested!.data.options.map((o: { optionId: string }) => o.optionId)).to.deep.equal(['allow-once', 'allow-always', 'reject']);
    expect(resolved!.data).to.deep.include({ approvalId, decidedBy: 'user', optionId: 'allow-once', optionKind: 'allow_once' });
    const turnId = events.find((e) => e.type === 'turn/started')!.turnId;
    expect([requested!.turnId, resolved!.turnId]).to.deep.equal([turnId, turnId]);
  });

  it('rows: a question the policy answered and one a stop cancelled say who decided', async () => {
    const thread = await newThread(t);
    await t.json(`/threads/${thread.id}/messages`, { body: { prompt: `edit ${path.join(folder, 'c.ts')}` } });
    await eventsUntil(t, thread.id, completedTurns(1));
    await promptAndAwaitQuestion(thread.id, 'make');
    await t.json(`/threads/${thread.id}/stop`, { method: 'POST' });
    const events = await eventsUntil(t, thread.id, completedTurns(2));
    const resolved = approvalRows(events).filter((e) => e.type === 'approval/resolved');
    expect(resolved.map((e) => e.data.decidedBy)).to.deep.equal(['policy', 'cancelled']);
    expect(resolved[1]!.data.reason).to.equal('stopped by the user');
  });
});
