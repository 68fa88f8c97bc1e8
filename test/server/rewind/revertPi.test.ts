import { expect } from 'chai';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createPiProvider } from '../../../src/daemon/providers/pi';
import {
  lastUserText,
  scriptByPrompt,
  textOf,
  startFakeModelServer,
  type FakeModelServer,
  type ScriptedReply,
} from '../../helpers/fakes/modelServer';
import { git, initRepo } from '../../helpers/git/gitRepo';
import { eventually } from '../../helpers/server/eventually';
import { startTestServer, type TestServer } from '../../helpers/server/harness';
import { suiteTempDirs } from '../../helpers/temp/suiteDirs';
import { createPiSandbox, FAKE_MODEL, type PiSandbox } from '../../providers/pi/piSandbox';

type Row = { type: string; turnId: string | null; data: Record<string, any> };

const NOTICE_OF_FAREWELL =
  "[The user reverted this workspace's files to how they were before an earlier turn. The changes made in the\n" +
  'following turn are undone: the files no longer have them, so treat that work as not done.]\n' +
  '1. "Add a farewell"';

const NOTICE_OF_BOTH =
  "[The user reverted this workspace's files to how they were before an earlier turn. The changes made in the\n" +
  'following 2 turns are undone: the files no longer have them, so treat that work as not done.]\n' +
  '1. "Write the greeting"\n' +
  '2. "Add a farewell"';

/**
 * The model's side of both suites: two turns that each write a file, and a question after the revert. The
 * keys are tried in this order and the first found wins: the notice before "What is left?" quotes the earlier prompts.
 */
const TWO_FILES: Record<string, ScriptedReply[]> = {
  'What is left?': [{ kind: 'text', chunks: ['Only the README.'] }],
  'Write the greeting': [
    { kind: 'toolCall', toolName: 'write', args: { path: 'greeting.txt', content: 'hello\n' } },
    { kind: 'text', chunks: ['Written.'] },
  ],
  'Add a farewell': [
    { kind: 'toolCall', toolName: 'write', args: { path: 'farewell.txt', content: 'bye\n' } },
    { kind: 'text', chunks: ['Added.'] },
  ],
};

/** Issue 39, Revert: a real pi agent's turns undone on disk, the rows that say so, and what the model is told next. */
describe('server: revert and unrevert a thread at a turn, with a real pi agent (issue 39)', function () {
  this.timeout(120_000);
  const tempDir = suiteTempDirs();
  let model: FakeModelServer;
  let sandbox: PiSandbox;
  let t: TestServer;
  let projectId: string;

  before(async () => {
    model = await startFakeModelServer(scriptByPrompt(TWO_FILES));
    sandbox = createPiSandbox({ baseUrl: model.baseUrl });
    t = await startTestServer({ providers: [createPiProvider({ agentDir: sandbox.agentDir, log: () => undefined })] });
    const checkout = await tempDir('ats-revert-');
    initRepo(checkout, { 'README.md': '# demo\n' });
    projectId = (
      await t.json('/projects', { body: { name: 'demo', source: { type: 'local_path', path: checkout, hostId: t.server.hostId } } })
    ).id;
  });
  after(async () => {
    await t?.close();
    await model?.close();
    sandbox?.remove();
  });

  const rowsOf = (threadId: string): Promise<Row[]> => t.json(`/threads/${threadId}/events`);
  const turnsCompleted = (threadId: string, count: number) =>
    eventually(
      async () => {
        const rows = await rowsOf(threadId);
        return rows.filter((row) => row.type === 'turn/completed').length >= count ? rows : undefined;
      },
      `${count} turns completed`,
      60_000,
    );
  const post = (url: string, body?: unknown) => t.api(url, body === undefined ? { method: 'POST' } : { body });

  async function twoTurns(workspace: 'worktree' | 'checkout') {
    const thread = await t.json('/threads', {
      body: { projectId, provider: 'pi', model: FAKE_MODEL, title: `Two turns (${workspace})`, workspace, prompt: 'Write the greeting' },
    });
    await turnsCompleted(thread.id, 1);
    expect((await post(`/threads/${thread.id}/messages`, { prompt: 'Add a farewell' })).status).to.equal(202);
    const rows = await turnsCompleted(thread.id, 2);
    const turnIds = rows.filter((row) => row.type === 'turn/started').map((row) => row.turnId!);
    return { thread, folder: thread.workspace.path as string, turnIds };
  }

  it('a worktree thread: revert puts the files back to the turn’s start, unrevert brings them and later edits back; rows say so', async () => {
    const { thread, folder, turnIds } = await twoTurns('worktree');
    writeFileSync(path.join(folder, 'notes.txt'), 'the user’s, uncommitted\n');
    const reverted = await post(`/threads/${thread.id}/revert`, { turnId: turnIds[1] });
    expect(reverted.status).to.equal(200);
    const answer = await reverted.json();
    expect(answer.undoneTurnIds).to.deep.equal([turnIds[1]]);
    expect(readFileSync(path.join(folder, 'greeting.txt'), 'utf8')).to.equal('hello\n');
    expect(existsSync(path.join(folder, 'farewell.txt'))).to.equal(false);
    expect(existsSync(path.join(folder, 'notes.txt')), 'changes after the turn are undone too').to.equal(false);
    let rows = await rowsOf(thread.id);
    expect(rows.at(-1)).to.deep.include({ type: 'thread/reverted', turnId: null });
    expect(rows.at(-1)!.data).to.include({ turnId: turnIds[1], snapshotRef: answer.snapshotRef });
    expect(rows.filter((row) => row.turnId === turnIds[1]).length, 'no row is deleted').to.be.greaterThan(3);

    const unreverted = await post(`/threads/${thread.id}/unrevert`);
    expect(unreverted.status).to.equal(200);
    expect(readFileSync(path.join(folder, 'farewell.txt'), 'utf8')).to.equal('bye\n');
    expect(readFileSync(path.join(folder, 'notes.txt'), 'utf8')).to.equal('the user’s, uncommitted\n');
    rows = await rowsOf(thread.id);
    expect(rows.at(-1)!.type).to.equal('thread/unreverted');
    expect(rows.at(-1)!.data).to.include({ turnId: turnIds[1], snapshotRef: answer.snapshotRef });

    expect((await post(`/threads/${thread.id}/messages`, { prompt: 'What is left?' })).status).to.equal(202);
    await turnsCompleted(thread.id, 3);
    const texts = model.requests
      .filter((candidate) => lastUserText(candidate) === 'What is left?')
      .at(-1)!
      .messages.map((message) => textOf(message.content));
    expect(texts, 'the unrevert moved the conversation back to after the farewell').to.include('Add a farewell');
    expect(texts.some((text) => text.includes('The user undid the revert'))).to.equal(true);

    const again = await post(`/threads/${thread.id}/unrevert`);
    expect([again.status, (await again.json()).code]).to.deep.equal([409, 'nothing_to_unrevert']);
    const unknown = await post(`/threads/${thread.id}/revert`, { turnId: 'turn_nope' });
    expect([unknown.status, (await unknown.json()).code]).to.deep.equal([404, 'turn_not_found']);
  });

  it('pi’s own conversation goes back too: the model sees the turns before, a summary of the undone one, then the prompt', async () => {
    const { thread, folder, turnIds } = await twoTurns('worktree');
    expect((await post(`/threads/${thread.id}/revert`, { turnId: turnIds[1] })).status).to.equal(200);
    expect(existsSync(path.join(folder, 'farewell.txt'))).to.equal(false);
    expect((await post(`/threads/${thread.id}/messages`, { prompt: 'What is left?' })).status).to.equal(202);
    await turnsCompleted(thread.id, 3);
    const request = model.requests.filter((candidate) => lastUserText(candidate) === 'What is left?').at(-1)!;
    const texts = request.messages.map((message) => `${message.role}: ${textOf(message.content)}`);
    expect(texts.filter((text) => text.startsWith('user: '))).to.have.length(3);
    expect(texts.some((text) => text === 'user: Write the greeting')).to.equal(true);
    expect(
      texts.some((text) => text === 'user: Add a farewell'),
      'the undone turn is out of the conversation',
    ).to.equal(false);
    expect(
      texts.some((text) => text.includes('Added.')),
      'and its answer',
    ).to.equal(false);
    const summary = texts.find((text) => text.includes(NOTICE_OF_FAREWELL))!;
    expect(summary, 'a summary of the undone turn, where it was').to.match(/^user: /);
    // A turn ran since the revert: it is final now.
    const unrevert = await post(`/threads/${thread.id}/unrevert`);
    expect([unrevert.status, (await unrevert.json()).code]).to.deep.equal([409, 'changed_since_revert']);
  });

  it('a checkout thread reverts the checkout itself, from its turn trees', async () => {
    const { thread, folder, turnIds } = await twoTurns('checkout');
    expect(existsSync(path.join(folder, 'farewell.txt'))).to.equal(true);
    expect((await post(`/threads/${thread.id}/revert`, { turnId: turnIds[1] })).status).to.equal(200);
    expect(existsSync(path.join(folder, 'farewell.txt'))).to.equal(false);
    expect(readFileSync(path.join(folder, 'greeting.txt'), 'utf8')).to.equal('hello\n');
    expect((await post(`/threads/${thread.id}/unrevert`)).status).to.equal(200);
    expect(existsSync(path.join(folder, 'farewell.txt'))).to.equal(true);
    expect(git(folder, 'status', '--porcelain')).to.equal('?? farewell.txt\n?? greeting.txt');
  });
});

/** The fallback for an agent whose conversation cannot be moved: pi without `rewindSession` stands in for one. */
describe('server: after a revert, an agent whose conversation is not rewound is told in the next prompt (issue 39)', function () {
  this.timeout(120_000);
  const tempDir = suiteTempDirs();
  let model: FakeModelServer;
  let sandbox: PiSandbox;
  let t: TestServer;

  before(async () => {
    model = await startFakeModelServer(scriptByPrompt(TWO_FILES));
    sandbox = createPiSandbox({ baseUrl: model.baseUrl });
    const { rewindSession: _cannot, ...pi } = createPiProvider({ agentDir: sandbox.agentDir, log: () => undefined });
    t = await startTestServer({ providers: [pi] });
  });
  after(async () => {
    await t?.close();
    await model?.close();
    sandbox?.remove();
  });

  it('the model receives which turns were undone before the prompt, once; its conversation keeps them', async () => {
    const checkout = await tempDir('ats-revert-told-');
    initRepo(checkout, { 'README.md': '# demo\n' });
    const project = await t.json('/projects', {
      body: { name: 'told', source: { type: 'local_path', path: checkout, hostId: t.server.hostId } },
    });
    const thread = await t.json('/threads', {
      body: {
        projectId: project.id,
        provider: 'pi',
        model: FAKE_MODEL,
        title: 'Told',
        workspace: 'worktree',
        prompt: 'Write the greeting',
      },
    });
    const rowsOf = (): Promise<Row[]> => t.json(`/threads/${thread.id}/events`);
    const turnsCompleted = (count: number) =>
      eventually(
        async () => ((await rowsOf()).filter((row) => row.type === 'turn/completed').length >= count ? rowsOf() : undefined),
        `${count} turns completed`,
        60_000,
      );
    await turnsCompleted(1);
    await t.api(`/threads/${thread.id}/messages`, { body: { prompt: 'Add a farewell' } });
    const turnIds = (await turnsCompleted(2)).filter((row) => row.type === 'turn/started').map((row) => row.turnId!);

    expect((await t.api(`/threads/${thread.id}/revert`, { body: { turnId: turnIds[0] } })).status).to.equal(200);
    expect(existsSync(path.join(thread.workspace.path, 'greeting.txt'))).to.equal(false);
    await t.api(`/threads/${thread.id}/messages`, { body: { prompt: 'What is left?' } });
    await turnsCompleted(3);
    const request = model.requests.filter((candidate) => lastUserText(candidate).endsWith('What is left?')).at(-1)!;
    expect(lastUserText(request)).to.equal(`${NOTICE_OF_BOTH}\n\nWhat is left?`);
    expect(request.messages.filter((message) => message.role === 'user')).to.have.length(3); // not rewound: told
    const userMessages = (await rowsOf()).filter((row) => row.type === 'item/completed' && row.data.item.type === 'userMessage');
    expect(userMessages.at(-1)!.data.item.content[0].text).to.equal(`${NOTICE_OF_BOTH}\n\nWhat is left?`);

    // Told once: the prompt after that is the user's text alone.
    await t.api(`/threads/${thread.id}/messages`, { body: { prompt: 'What is left? Again.' } });
    await turnsCompleted(4);
    expect(lastUserText(model.requests.at(-1)!)).to.equal('What is left? Again.');
  });
});
