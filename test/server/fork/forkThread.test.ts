import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import { createPiProvider } from '../../../src/daemon/providers/pi';
import { FORK_CONTEXT_END, FORK_CONTEXT_HEADING } from '../../../src/server/fork/forkContext';
import { filesOf } from '../../daemon/git/filesOf';
import { lastUserText, scriptByPrompt, startFakeModelServer, type FakeModelServer } from '../../helpers/fakes/modelServer';
import { git, initRepo } from '../../helpers/git/gitRepo';
import { eventually } from '../../helpers/server/eventually';
import { startTestServer, type TestServer } from '../../helpers/server/harness';
import { suiteTempDirs } from '../../helpers/temp/suiteDirs';
import { createPiSandbox, FAKE_MODEL, type PiSandbox } from '../../providers/pi/piSandbox';
import { treeFiles, turnEndTree } from './treeFiles';

type Row = { seq: number; type: string; turnId: string | null; scope: unknown; data: Record<string, any> };
type Thread = { id: string; title: string; forkedFrom?: unknown; workspace: { kind: string; path: string; branch: string; state: string } };

/** Issue 39: a real pi agent's worktree thread forked at its first turn: rows, files and what the model is told. */
describe('server: POST /threads/:id/fork with a real pi agent (issue 39)', function () {
  this.timeout(180_000);
  const tempDir = suiteTempDirs();
  let model: FakeModelServer;
  let sandbox: PiSandbox;
  let t: TestServer;
  let checkout: string;
  let source: Thread;

  before(async () => {
    // Keys are matched in this order against the last user message: the fork's first prompt holds the earlier ones.
    model = await startFakeModelServer(
      scriptByPrompt({
        'Continue in the fork': [{ kind: 'text', chunks: ['Continuing.'] }],
        'Again in the fork': [{ kind: 'text', chunks: ['Again.'] }],
        'Change the greeting': [
          { kind: 'toolCall', toolName: 'write', args: { path: 'greeting.txt', content: 'bye\n' } },
          { kind: 'toolCall', toolName: 'write', args: { path: 'second.txt', content: 'only in turn 2\n' } },
          { kind: 'text', chunks: ['Changed.'] },
        ],
        'Write the greeting': [
          { kind: 'toolCall', toolName: 'write', args: { path: 'greeting.txt', content: 'hello\n' } },
          { kind: 'text', chunks: ['Written.'] },
        ],
      }),
    );
    sandbox = createPiSandbox({ baseUrl: model.baseUrl });
    t = await startTestServer({ providers: [createPiProvider({ agentDir: sandbox.agentDir, log: () => undefined })] });
    checkout = await tempDir('ats-fork-');
    initRepo(checkout, { 'README.md': '# demo\n', 'src/keep.txt': 'kept\n' });
    const project = await t.json('/projects', {
      body: { name: 'demo', source: { type: 'local_path', path: checkout, hostId: t.server.hostId } },
    });
    source = await t.json('/threads', {
      body: {
        projectId: project.id,
        provider: 'pi',
        model: FAKE_MODEL,
        title: 'Greeting',
        workspace: 'worktree',
        prompt: 'Write the greeting',
      },
    });
    await turnsCompleted(source.id, 1);
    expect((await t.api(`/threads/${source.id}/messages`, { body: { prompt: 'Change the greeting' } })).status).to.equal(202);
    await turnsCompleted(source.id, 2);
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
        const completed = (await rowsOf(threadId)).filter((row) => row.type === 'turn/completed');
        return completed.length >= count ? completed : undefined;
      },
      `${count} turns of ${threadId} completed`,
      60_000,
    );
  const fork = (body: Record<string, unknown>, id = source.id) => t.api(`/threads/${id}/fork`, { body });
  /** pi's session file (`<timestamp>_<sessionId>.jsonl`) somewhere under the server's data dir. */
  const sessionFileOf = (sessionId: string): string => {
    const found = (readdirSync(t.dataDir, { recursive: true }) as string[]).find((name) => name.endsWith(`_${sessionId}.jsonl`));
    if (!found) throw new Error(`no pi session file of ${sessionId}`);
    return path.join(t.dataDir, found);
  };
  const withoutSeq = ({ type, turnId, scope, data }: Row) => ({ type, turnId, scope, data });

  it('forks at the first turn: the source’s rows up to its end, seqs 1..n, then thread/forked; the source untouched', async () => {
    const sourceRows = await rowsOf(source.id);
    const sourceFiles = filesOf(source.workspace.path);
    const sourceStatus = git(source.workspace.path, 'status', '--porcelain');
    const sourceTip = git(checkout, 'rev-parse', `refs/heads/${source.workspace.branch}`);
    const [firstTurn] = await turnsCompleted(source.id, 2);

    const answer = await fork({ turnId: firstTurn!.turnId, title: 'Greeting, other way' });
    expect(answer.status).to.equal(201);
    const forked: Thread = await answer.json();
    expect(answer.headers.get('location')).to.equal(`/api/v1/threads/${forked.id}`);
    expect(forked).to.include({ title: 'Greeting, other way' });
    expect(forked.forkedFrom).to.deep.equal({
      threadId: source.id,
      seq: forked.forkedFrom && (forked.forkedFrom as any).seq,
      turnId: firstTurn!.turnId,
    });
    expect(forked.workspace).to.include({ kind: 'worktree', state: 'ready' });
    expect(forked.workspace.path).to.not.equal(source.workspace.path);
    expect(forked.workspace.branch).to.not.equal(source.workspace.branch);

    const rows = await rowsOf(forked.id);
    expect(rows.map((row) => row.seq)).to.deep.equal(rows.map((_, i) => i + 1));
    const end = sourceRows.findIndex((row) => row.type === 'turn/completed');
    const copied = sourceRows.slice(0, end + 1 + (sourceRows[end + 1]?.type === 'thread/contextWindowUsage/updated' ? 1 : 0));
    expect(rows.slice(0, -1).map(withoutSeq)).to.deep.equal(copied.map(withoutSeq));
    expect(rows.at(-1)).to.deep.include({ type: 'thread/forked', turnId: null, scope: { kind: 'thread' } });
    expect(rows.at(-1)!.data).to.deep.include({
      sourceThreadId: source.id,
      sourceSeq: copied.at(-1)!.seq,
      sourceTurnId: firstTurn!.turnId,
    });
    expect((forked.forkedFrom as { seq: number }).seq).to.equal(copied.at(-1)!.seq);

    // The fork's files are the turn's end tree byte for byte; the source's worktree, rows and branch are as they were.
    const tree = turnEndTree(checkout, source.id, firstTurn!.turnId!);
    expect(filesOf(forked.workspace.path)).to.deep.equal(treeFiles(checkout, tree));
    expect(readFileSync(path.join(forked.workspace.path, 'greeting.txt'), 'utf8')).to.equal('hello\n');
    expect(existsSync(path.join(forked.workspace.path, 'second.txt'))).to.equal(false);
    expect(git(forked.workspace.path, 'status', '--porcelain')).to.equal('');
    expect(filesOf(source.workspace.path)).to.deep.equal(sourceFiles);
    expect(git(source.workspace.path, 'status', '--porcelain')).to.equal(sourceStatus);
    expect(git(checkout, 'rev-parse', `refs/heads/${source.workspace.branch}`)).to.equal(sourceTip);
    expect(await rowsOf(source.id)).to.deep.equal(sourceRows);
  });

  it('pi forks its own session at the turn: the model gets the conversation up to it, not after, and the source’s session is unchanged', async () => {
    const [firstTurn] = await turnsCompleted(source.id, 2);
    const sessionFile = sessionFileOf(firstTurn!.data.providerThreadId);
    const sessionBefore = readFileSync(sessionFile);
    const forked: Thread & { providerThreadId: string } = await (await fork({ turnId: firstTurn!.turnId })).json();
    expect(forked.title).to.equal('Greeting (fork)');
    expect(forked).to.not.have.property('pendingContext');
    expect(forked.providerThreadId).to.not.be.oneOf([firstTurn!.data.providerThreadId, forked.id]);
    expect((await t.api(`/threads/${forked.id}/messages`, { body: { prompt: 'Continue in the fork' } })).status).to.equal(202);
    await turnsCompleted(forked.id, 2);
    const request = model.requests.find((candidate) => lastUserText(candidate) === 'Continue in the fork')!;
    expect(request.messages.map((message) => message.role)).to.deep.equal(['system', 'user', 'assistant', 'tool', 'assistant', 'user']);
    const texts = JSON.stringify(request.messages);
    expect(texts).to.include('Write the greeting').and.include('Written.').and.not.include('Change the greeting');
    expect(readFileSync(sessionFile)).to.deep.equal(sessionBefore);
    const rows = await rowsOf(forked.id);
    expect(rows.map((row) => row.seq)).to.deep.equal(rows.map((_, i) => i + 1));
    expect(rows.filter((row) => row.type === 'turn/started').at(-1)!.data.providerThreadId).to.equal(forked.providerThreadId);
  });

  it('without a session of pi’s to fork, a fresh session is told the earlier conversation once, in its first prompt', async () => {
    const [firstTurn] = await turnsCompleted(source.id, 2);
    const sessionFile = sessionFileOf(firstTurn!.data.providerThreadId);
    renameSync(sessionFile, `${sessionFile}.away`); // as on a host that lost it: the fork cannot branch it
    let forked: Thread;
    try {
      forked = await (await fork({ turnId: firstTurn!.turnId })).json();
    } finally {
      renameSync(`${sessionFile}.away`, sessionFile);
    }
    expect((await t.api(`/threads/${forked.id}/messages`, { body: { prompt: 'Again in the fork' } })).status).to.equal(202);
    await turnsCompleted(forked.id, 2);
    const request = model.requests.find((candidate) => lastUserText(candidate).endsWith('Again in the fork'))!;
    expect(lastUserText(request)).to.equal(
      `${FORK_CONTEXT_HEADING}\n\nUser:\nWrite the greeting\n\nAssistant used write on greeting.txt\n\nAssistant:\nWritten.\n\n${FORK_CONTEXT_END}\n\nAgain in the fork`,
    );
    expect(request.messages.filter((message) => message.role === 'user')).to.have.length(1);
    expect(JSON.stringify(request.messages)).to.not.include('Change the greeting');
    expect((await t.api(`/threads/${forked.id}/messages`, { body: { prompt: 'Continue in the fork' } })).status).to.equal(202);
    await turnsCompleted(forked.id, 3);
    const next = model.requests.filter((candidate) => lastUserText(candidate) === 'Continue in the fork').at(-1)!;
    expect(next.messages.filter((message) => message.role === 'user')).to.have.length(2); // sent as written, once
  });

  it('without a turn it forks after the last one; "checkout" puts the fork in the project’s folder', async () => {
    const sourceRows = await rowsOf(source.id);
    const forked: Thread = await (await fork({ workspace: 'checkout' })).json();
    expect(forked.workspace).to.include({ kind: 'checkout', path: checkout });
    const rows = await rowsOf(forked.id);
    const last = sourceRows.map((row) => row.type).lastIndexOf('turn/completed');
    expect(rows.at(-1)!.data).to.deep.include({ sourceTurnId: sourceRows[last]!.turnId });
    expect(rows.slice(0, -1).map(withoutSeq)).to.deep.equal(sourceRows.slice(0, rows.length - 1).map(withoutSeq));
    expect(git(checkout, 'status', '--porcelain')).to.equal('');
  });

  it('an unknown turn is 404 turn_not_found, an unknown thread 404; nothing is made', async () => {
    const before = (await t.json('/threads')).length;
    const unknownTurn = await fork({ turnId: 'no-such-turn' });
    expect([unknownTurn.status, (await unknownTurn.json()).code]).to.deep.equal([404, 'turn_not_found']);
    expect((await fork({}, 'thr_nope')).status).to.equal(404);
    expect((await fork({ workspace: 'elsewhere' })).status).to.equal(400);
    expect((await t.json('/threads')).length).to.equal(before);
  });

  it('a turn whose end tree was never recorded is 409 turn_tree_missing, and leaves no thread, worktree or branch', async () => {
    const threads = (await t.json('/threads')).length;
    const worktrees = git(checkout, 'worktree', 'list', '--porcelain');
    const branches = git(checkout, 'branch', '--list');
    for (const ref of git(checkout, 'for-each-ref', '--format=%(refname)', `refs/ats/turns/${source.id}/`).split('\n')) {
      if (ref.endsWith('/end')) git(checkout, 'update-ref', '-d', ref);
    }
    const answer = await fork({});
    expect([answer.status, (await answer.json()).code]).to.deep.equal([409, 'turn_tree_missing']);
    expect((await t.json('/threads')).length).to.equal(threads);
    expect(git(checkout, 'worktree', 'list', '--porcelain')).to.equal(worktrees);
    expect(git(checkout, 'branch', '--list')).to.equal(branches);
  });
});
