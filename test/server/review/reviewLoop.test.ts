import { expect } from 'chai';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createPiProvider } from '../../../src/daemon/providers/pi';
import { lastUserText, scriptByPrompt, startFakeModelServer, type FakeModelServer } from '../../helpers/fakes/modelServer';
import { git, initRepo } from '../../helpers/git/gitRepo';
import { eventually } from '../../helpers/server/eventually';
import { startTestServer, type TestServer } from '../../helpers/server/harness';
import { suiteTempDirs } from '../../helpers/temp/suiteDirs';
import { createPiSandbox, FAKE_MODEL, type PiSandbox } from '../../providers/pi/piSandbox';

type Row = { type: string; turnId?: string; data: Record<string, any> };

/** Issue 38: a real pi agent works in its worktree; its diff is reviewed, and the comments reach the model as one block. */
describe('server: the review loop with a real pi agent (issue 38)', function () {
  this.timeout(120_000);
  const tempDir = suiteTempDirs();
  let model: FakeModelServer;
  let sandbox: PiSandbox;
  let t: TestServer;
  let checkout: string;
  let thread: { id: string; workspace: { path: string; branch: string } };

  before(async () => {
    model = await startFakeModelServer(
      scriptByPrompt({
        'Write the greeting': [
          { kind: 'toolCall', toolName: 'write', args: { path: 'greeting.txt', content: 'hello\nworld\n' } },
          { kind: 'text', chunks: ['Written.'] },
        ],
        'Address the review': [{ kind: 'text', chunks: ['Done.'] }],
      }),
    );
    sandbox = createPiSandbox({ baseUrl: model.baseUrl });
    t = await startTestServer({ providers: [createPiProvider({ agentDir: sandbox.agentDir, log: () => undefined })] });
    checkout = await tempDir('ats-review-loop-');
    initRepo(checkout, { 'README.md': '# demo\n' });
    const project = await t.json('/projects', {
      body: { name: 'demo', source: { type: 'local_path', path: checkout, hostId: t.server.hostId } },
    });
    thread = await t.json('/threads', {
      body: {
        projectId: project.id,
        provider: 'pi',
        model: FAKE_MODEL,
        title: 'Greeting',
        workspace: 'worktree',
        prompt: 'Write the greeting',
      },
    });
    await turnsCompleted(1);
  });
  after(async () => {
    await t?.close();
    await model?.close();
    sandbox?.remove();
  });

  const rows = (): Promise<Row[]> => t.json(`/threads/${thread.id}/events`);
  const turnsCompleted = (count: number) =>
    eventually(
      async () => {
        const completed = (await rows()).filter((row) => row.type === 'turn/completed');
        return completed.length >= count ? completed : undefined;
      },
      `${count} turns completed`,
      60_000,
    );
  const comment = (body: Record<string, unknown>) => t.api(`/threads/${thread.id}/review-comments`, { body });

  it('the agent writes in its worktree while the checkout stays untouched', async () => {
    expect((await turnsCompleted(1))[0]!.data.status).to.equal('completed');
    expect(readFileSync(path.join(thread.workspace.path, 'greeting.txt'), 'utf8')).to.equal('hello\nworld\n');
    expect(existsSync(path.join(checkout, 'greeting.txt'))).to.equal(false);
    expect(git(checkout, 'status', '--porcelain')).to.equal('');
  });

  it('GET …/diff answers the three scopes of the worktree; a bad scope is 400', async () => {
    for (const scope of ['uncommitted', 'branch', 'turn']) {
      const diff = await t.json(`/threads/${thread.id}/diff?scope=${scope}`);
      expect(diff.scope).to.equal(scope);
      const file = diff.files.find((candidate: { path: string }) => candidate.path === 'greeting.txt');
      expect(file, scope).to.include({ status: 'added', additions: 2, deletions: 0 });
    }
    expect((await t.api(`/threads/${thread.id}/diff?scope=everything`)).status).to.equal(400);
    expect((await t.api(`/threads/thr_nope/diff?scope=uncommitted`)).status).to.equal(404);
  });

  it('GET …/diff?maxFiles=N answers the first N files as the whole diff has them (the page’s first screen)', async () => {
    for (const scope of ['uncommitted', 'branch', 'turn']) {
      const whole = await t.json(`/threads/${thread.id}/diff?scope=${scope}`);
      const first = await t.json(`/threads/${thread.id}/diff?scope=${scope}&maxFiles=1`);
      expect(first.files, scope).to.deep.equal(whole.files.slice(0, 1));
      expect(first.truncated, scope).to.equal(whole.files.length > 1);
    }
    for (const bad of ['0', '0x1', '1e1', '501'])
      expect((await t.api(`/threads/${thread.id}/diff?scope=uncommitted&maxFiles=${bad}`)).status, bad).to.equal(400);
  });

  it('writes a draft with the line it points at, edits, lists, drops; a line not in the diff is 400', async () => {
    const created = await comment({ path: 'greeting.txt', line: 2, side: 'new', text: 'Say "everyone".', scope: 'uncommitted' });
    expect(created.status).to.equal(201);
    const draft = await created.json();
    expect(draft).to.deep.equal({
      id: draft.id,
      path: 'greeting.txt',
      line: 2,
      side: 'new',
      text: 'Say "everyone".',
      snippet: 'world',
      state: 'draft',
    });
    const outside = await comment({ path: 'greeting.txt', line: 9, side: 'new', text: 'x', scope: 'uncommitted' });
    expect([outside.status, (await outside.json()).code]).to.deep.equal([400, 'line_not_in_diff']);
    const edited = await t.json(`/threads/${thread.id}/review-comments/${draft.id}`, {
      method: 'PATCH',
      body: { text: 'Say "everyone" instead.' },
    });
    expect(edited).to.include({ text: 'Say "everyone" instead.', state: 'draft' });
    const extra = await (await comment({ path: 'greeting.txt', line: 1, side: 'new', text: 'drop me', scope: 'branch' })).json();
    expect((await t.json(`/threads/${thread.id}/review-comments`)).map((c: { id: string }) => c.id)).to.deep.equal([draft.id, extra.id]);
    expect((await t.api(`/threads/${thread.id}/review-comments/${extra.id}`, { method: 'DELETE' })).status).to.equal(204);
    const gone = await t.api(`/threads/${thread.id}/review-comments/${extra.id}`, { method: 'DELETE' });
    expect([gone.status, (await gone.json()).code]).to.deep.equal([404, 'review_comment_not_found']);
    expect((await t.json(`/threads/${thread.id}/review-comments`)).map((c: { id: string }) => c.id)).to.deep.equal([draft.id]);
  });

  it('a draft whose line changed since reads stale', async () => {
    const draft = await (await comment({ path: 'greeting.txt', line: 1, side: 'new', text: 'Capital H?', scope: 'uncommitted' })).json();
    writeFileSync(path.join(thread.workspace.path, 'greeting.txt'), 'Hello\nworld\n');
    const listed = await t.json(`/threads/${thread.id}/review-comments`);
    expect(listed.find((c: { id: string }) => c.id === draft.id).state).to.equal('stale');
    expect(listed.filter((c: { state: string }) => c.state === 'draft')).to.have.length(1); // line 2 still reads "world"
    expect((await t.api(`/threads/${thread.id}/review-comments/${draft.id}`, { method: 'DELETE' })).status).to.equal(204);
  });

  it('a prompt sends the comments as one block after it: the model receives it, the user message keeps it, each becomes sent', async () => {
    const [draft] = await t.json(`/threads/${thread.id}/review-comments`);
    const unknown = await t.api(`/threads/${thread.id}/messages`, {
      body: { prompt: 'Address the review', reviewCommentIds: ['rc_nope'] },
    });
    expect([unknown.status, (await unknown.json()).code]).to.deep.equal([400, 'unknown_review_comment']);
    const sent = await t.api(`/threads/${thread.id}/messages`, { body: { prompt: 'Address the review', reviewCommentIds: [draft.id] } });
    expect(sent.status).to.equal(202);
    await turnsCompleted(2);
    const received = model.requests.map(lastUserText).find((text) => text.startsWith('Address the review'));
    expect(received).to.equal('Address the review\n\nReview comments (1):\n\n1. greeting.txt:2\n> world\nSay "everyone" instead.');
    const userMessages = (await rows()).filter((row) => row.type === 'item/completed' && row.data.item?.type === 'userMessage');
    expect(userMessages.at(-1)!.data.item.content[0].text).to.equal(received);
    expect(userMessages.at(-1)!.data.item.reviewComments).to.deep.equal([
      { path: 'greeting.txt', line: 2, side: 'new', snippet: 'world', text: 'Say "everyone" instead.' },
    ]);
    expect((await t.json(`/threads/${thread.id}/review-comments`))[0].state).to.equal('sent');
  });

  it('a checkout thread has uncommitted and turn diffs, and no branch diff (400 invalid_scope)', async () => {
    const project = (await t.json('/projects')).find((p: { name: string }) => p.name === 'demo');
    const plain = await t.json('/threads', { body: { projectId: project.id, provider: 'pi', model: FAKE_MODEL, title: 'Plain' } });
    writeFileSync(path.join(checkout, 'README.md'), '# demo, changed\n');
    try {
      const diff = await t.json(`/threads/${plain.id}/diff?scope=uncommitted`);
      expect(diff.files.map((file: { path: string }) => file.path)).to.deep.equal(['README.md']);
      const branch = await t.api(`/threads/${plain.id}/diff?scope=branch`);
      expect([branch.status, (await branch.json()).code]).to.deep.equal([400, 'invalid_scope']);
    } finally {
      git(checkout, 'checkout', '--', 'README.md');
    }
  });
});
