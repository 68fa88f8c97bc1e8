import { expect } from 'chai';
import { realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { refreshPullRequests } from '../../../src/server/ship/refreshPullRequests';
import { servicePrompt } from '../../../src/server/ship/servicePrompts';
import { git, makeForgeStandIn, makeShipRepo, pathWithoutForgeClis } from '../../daemon/git/ship/shipFixture';
import { fakeProvider } from '../../helpers/fakes/provider';
import { startTestServer, type TestServer } from '../../helpers/server/harness';
import { suiteTempDirs } from '../../helpers/temp/suiteDirs';

interface Row {
  type: string;
  data: Record<string, any>;
}

/** Issue 39, the server side: commit, push and pull request of a worktree thread, through the embedded host. */
describe('server: ship a thread — commit, push, pull request (issue 39)', function () {
  this.timeout(60_000);
  const tempDir = suiteTempDirs();
  const pathBefore = process.env.PATH;
  let t: TestServer;
  let origin: string;
  let forge: ReturnType<typeof makeForgeStandIn>;
  let thread: { id: string; workspace: { path: string; branch: string } };

  before(async () => {
    const root = realpathSync(await tempDir('ats-ship-server-'));
    const repo = makeShipRepo(root);
    origin = repo.origin;
    git(repo.checkout, 'switch', '-q', 'main');
    // The forge stand-in is on the PATH of this process only, which is the test server's embedded daemon.
    forge = makeForgeStandIn(root);
    process.env.PATH = forge.env.PATH;
    t = await startTestServer({ providers: [fakeProvider('fake')] });
    const project = await t.json('/projects', {
      body: { name: 'demo', source: { type: 'local_path', path: repo.checkout, hostId: t.server.hostId } },
    });
    thread = await t.json('/threads', {
      body: { projectId: project.id, provider: 'fake', model: 'fake/model', title: 'Ship it', workspace: 'worktree' },
    });
  });
  after(async () => {
    process.env.PATH = pathBefore;
    await t?.close();
  });

  const post = (route: string, body: Record<string, unknown>) => t.api(`/threads/${thread.id}/${route}`, { body });
  const problemOf = async (response: Response) => ({ status: response.status, code: (await response.json()).code });
  const rows = (): Promise<Row[]> => t.json(`/threads/${thread.id}/events`);
  const shipDeps = () => ({ registry: t.server.registry, hosts: t.server.hosts, store: t.server.store, hub: t.server.hub, log: () => {} });

  it('refuses a commit with neither message nor generate (400), and one with nothing to commit (409)', async () => {
    expect(await problemOf(await post('commit', {}))).to.deep.equal({ status: 400, code: 'message_required' });
    expect(await problemOf(await post('commit', { message: 'nothing' }))).to.deep.equal({ status: 409, code: 'nothing_to_commit' });
  });

  it('commits the worktree’s changes on the thread’s branch, with a git/committed row', async () => {
    writeFileSync(path.join(thread.workspace.path, 'feature.txt'), 'feature\n');
    const response = await post('commit', { message: 'Add the feature' });
    expect(response.status).to.equal(201);
    const commit = await response.json();
    expect(commit).to.deep.include({ message: 'Add the feature', files: ['feature.txt'], branch: thread.workspace.branch });
    expect(git(thread.workspace.path, 'rev-parse', 'HEAD')).to.equal(commit.sha);
    const row = (await rows()).find((r) => r.type === 'git/committed');
    expect(row?.data).to.deep.include({ sha: commit.sha, message: 'Add the feature', files: ['feature.txt'] });
  });

  it('pushes the branch to origin (upstream set) with a git/pushed row; an unknown remote is 409 no_remote', async () => {
    const pushed = await t.json(`/threads/${thread.id}/push`, { body: {} });
    expect(pushed).to.include({ remote: 'origin', branch: thread.workspace.branch, pushed: true });
    expect(git(origin, 'rev-parse', `refs/heads/${thread.workspace.branch}`)).to.equal(pushed.sha);
    expect((await rows()).some((r) => r.type === 'git/pushed' && r.data.sha === pushed.sha)).to.equal(true);
    expect(await problemOf(await post('push', { remote: 'nope' }))).to.deep.equal({ status: 409, code: 'no_remote' });
  });

  it('opens a pull request with the host’s gh, keeps it on the thread and writes pr/opened', async () => {
    const response = await post('pull-request', { title: 'Add the feature', body: 'Body', base: 'main' });
    expect(response.status).to.equal(201);
    const answer = await response.json();
    const expected = { url: forge.url, number: 7, state: 'open', base: 'main', head: 'feature' };
    expect(answer).to.deep.equal({ pullRequest: expected, push: null });
    expect((await t.json(`/threads/${thread.id}`)).pullRequests).to.deep.equal([expected]);
    expect((await rows()).find((r) => r.type === 'pr/opened')?.data.pullRequest).to.deep.equal(expected);
    const create = forge.calls().find((call) => call.args[1] === 'create');
    expect(create).to.deep.equal({
      args: ['pr', 'create', '--head', thread.workspace.branch, '--base', 'main', '--title', 'Add the feature', '--body-file', '-'],
      stdin: 'Body',
    });
  });

  it('refreshes an open pull request’s state from the host: merged is kept and written as pr/state, then read no more', async () => {
    expect(await refreshPullRequests(shipDeps())).to.equal(0);
    forge.setState('MERGED');
    expect(await refreshPullRequests(shipDeps())).to.equal(1);
    expect((await t.json(`/threads/${thread.id}`)).pullRequests[0].state).to.equal('merged');
    expect((await rows()).find((r) => r.type === 'pr/state')?.data).to.deep.include({ url: forge.url, state: 'merged', previous: 'open' });
    const views = forge.calls().filter((call) => call.args[1] === 'view').length;
    expect(await refreshPullRequests(shipDeps())).to.equal(0);
    expect(forge.calls().filter((call) => call.args[1] === 'view').length).to.equal(views);
  });

  it('answers 424 forge_cli_unavailable saying what to install when the host has no gh', async () => {
    process.env.PATH = pathWithoutForgeClis(realpathSync(await tempDir('ats-ship-nogh-')));
    try {
      const response = await post('pull-request', { title: 'Again' });
      const problem = await response.json();
      expect({ status: response.status, code: problem.code }).to.deep.equal({ status: 424, code: 'forge_cli_unavailable' });
      expect(problem.detail).to.match(/install the GitHub CLI/);
    } finally {
      process.env.PATH = forge.env.PATH;
    }
  });

  it('generate: the thread’s agent writes the commit message in a turn of its own, asked by the service', async () => {
    writeFileSync(path.join(thread.workspace.path, 'more.txt'), 'more\n');
    const commit = await t.json(`/threads/${thread.id}/commit`, { body: { generate: true } });
    // The fake agent answers "echo: <what it was asked>": the commit message is its answer, whole.
    expect(commit.message).to.equal(`echo: ${servicePrompt('commit')}`);
    expect(git(thread.workspace.path, 'log', '-1', '--format=%B')).to.equal(commit.message);
  });

  it('generate: the pull request’s title and body come from the agent’s answer (first line the title)', async () => {
    const answer = await t.json(`/threads/${thread.id}/pull-request`, { body: { generate: true, base: 'main' } });
    expect(answer.pullRequest.url).to.equal(forge.url);
    const create = forge
      .calls()
      .filter((call) => call.args[1] === 'create')
      .pop()!;
    // The fake agent's answer is one line, "echo: <the question>": all of it the title, no body.
    const title = `echo: ${servicePrompt('pull-request', 'main')}`;
    expect(create.args).to.deep.equal([
      'pr',
      'create',
      '--head',
      thread.workspace.branch,
      '--base',
      'main',
      '--title',
      title,
      '--body-file',
      '-',
    ]);
    expect(create.stdin).to.equal('');
  });
});
