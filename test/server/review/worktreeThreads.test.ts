import { expect } from 'chai';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fakeProvider, type FakeProvider } from '../../helpers/fakes/provider';
import { git, initRepo } from '../../helpers/git/gitRepo';
import { eventually } from '../../helpers/server/eventually';
import { startTestServer, type TestServer } from '../../helpers/server/harness';
import { suiteTempDirs } from '../../helpers/temp/suiteDirs';

/** Issue 38, the server side: a thread's workspace through POST /threads, PATCH /projects and its lifecycle. */
describe('server: worktree threads (issue 38)', function () {
  this.timeout(60_000);
  const tempDir = suiteTempDirs();
  let t: TestServer;
  let checkout: string;
  let baseCommit: string;
  let project: { id: string };
  let agent: FakeProvider;

  before(async () => {
    agent = fakeProvider('fake');
    t = await startTestServer({ providers: [agent] });
    checkout = await tempDir('ats-review-checkout-');
    baseCommit = initRepo(checkout, { 'README.md': '# demo\n', 'src/app.ts': 'export const one = 1;\n' });
    project = await t.json('/projects', {
      body: { name: 'demo', source: { type: 'local_path', path: checkout, hostId: t.server.hostId } },
    });
  });
  after(() => t?.close());

  const newThread = (fields: Record<string, unknown>) =>
    t.api('/threads', {
      body: { projectId: project.id, provider: 'fake', model: 'fake/model', title: 'Fix the --force ../login bug', ...fields },
    });
  const problemOf = async (response: Response) => ({ status: response.status, code: (await response.json()).code });

  it('makes a worktree of its own: ready, on a branch named from the prefix, the short id and the title’s slug', async () => {
    const response = await newThread({ workspace: 'worktree' });
    expect(response.status).to.equal(201);
    const thread = await response.json();
    const shortId = thread.id.slice('thr_'.length, 'thr_'.length + 8);
    expect(thread.workspace).to.include({
      kind: 'worktree',
      branch: `ats/${shortId}-fix-the-force-login-bug`,
      baseRef: 'HEAD',
      baseCommit,
      state: 'ready',
    });
    expect(thread.workspace.path).to.not.equal(checkout);
    expect(readFileSync(path.join(thread.workspace.path, 'src/app.ts'), 'utf8')).to.equal('export const one = 1;\n');
    expect(git(thread.workspace.path, 'branch', '--show-current')).to.equal(thread.workspace.branch);
    expect((await t.json(`/threads/${thread.id}`)).workspace).to.deep.equal(thread.workspace);
    // Quick-open and file reads: the worktree is the thread's environment, a registered root.
    const environment = await t.json(`/environments/${thread.environmentId}`);
    expect(environment.path).to.equal(thread.workspace.path);
    const read = await t.json('/files/read', { body: { hostId: t.server.hostId, path: path.join(thread.workspace.path, 'README.md') } });
    expect(read.content).to.equal('# demo\n');
  });

  it('takes a base ref and a branch, or none (detached); a checkout thread works in the project’s folder', async () => {
    git(checkout, 'branch', 'feature');
    const named = await (await newThread({ workspace: 'worktree', baseRef: 'feature', branch: 'mine/topic' })).json();
    expect(named.workspace).to.include({ branch: 'mine/topic', baseRef: 'feature', baseCommit });
    const detached = await (await newThread({ workspace: 'worktree', branch: null })).json();
    expect(detached.workspace.branch).to.equal(null);
    expect(git(detached.workspace.path, 'branch', '--show-current')).to.equal('');
    const plain = await (await newThread({})).json();
    expect(plain.workspace).to.deep.equal({
      kind: 'checkout',
      path: checkout,
      branch: null,
      baseRef: null,
      baseCommit: null,
      state: 'ready',
    });
  });

  it('answers 400 with the host’s code for what git refuses, and keeps no thread of it', async () => {
    const before = (await t.json(`/threads?projectId=${project.id}`)).length;
    expect(await problemOf(await newThread({ workspace: 'worktree', branch: 'bad..name' }))).to.deep.equal({
      status: 400,
      code: 'invalid_branch',
    });
    expect(await problemOf(await newThread({ workspace: 'worktree', baseRef: 'no-such-ref' }))).to.deep.equal({
      status: 400,
      code: 'unknown_ref',
    });
    expect(await problemOf(await newThread({ branch: 'x' }))).to.deep.equal({ status: 400, code: 'invalid_body' });
    expect(await problemOf(await newThread({ workspace: 'elsewhere' }))).to.deep.equal({ status: 400, code: 'invalid_body' });
    const plainFolder = await tempDir('ats-review-plain-');
    const plain = await t.json('/projects', {
      body: { name: 'plain', source: { type: 'local_path', path: plainFolder, hostId: t.server.hostId } },
    });
    const refused = await t.api('/threads', {
      body: { projectId: plain.id, provider: 'pi', model: 'm', title: 't', workspace: 'worktree' },
    });
    expect(await problemOf(refused)).to.deep.equal({ status: 400, code: 'not_a_git_repository' });
    expect((await t.json(`/threads?projectId=${project.id}`)).length).to.equal(before);
    expect(await t.json(`/threads?projectId=${plain.id}`)).to.deep.equal([]);
  });

  it('PATCH /projects/:id sets the default workspace, the branch prefix and the setup script, whose run is a row of the thread', async () => {
    const patched = await t.json(`/projects/${project.id}`, {
      method: 'PATCH',
      body: { defaultWorkspace: 'worktree', branchPrefix: 'team/ai', setupScript: 'echo prepared > setup.txt; echo set up' },
    });
    expect(patched).to.include({
      defaultWorkspace: 'worktree',
      branchPrefix: 'team/ai',
      setupScript: 'echo prepared > setup.txt; echo set up',
    });
    expect(
      await problemOf(await t.api(`/projects/${project.id}`, { method: 'PATCH', body: { branchPrefix: '--upload-pack' } })),
    ).to.deep.equal({
      status: 400,
      code: 'invalid_body',
    });
    const thread = await (await newThread({})).json();
    expect(thread.workspace.kind).to.equal('worktree');
    expect(thread.workspace.branch).to.match(/^team\/ai\//);
    expect(readFileSync(path.join(thread.workspace.path, 'setup.txt'), 'utf8')).to.equal('prepared\n');
    const row = await eventually(async () => {
      const rows: Array<{ type: string; data: { workspace?: { setup?: { exitCode: number; output: string } } } }> = await t.json(
        `/threads/${thread.id}/events`,
      );
      return rows.find((candidate) => candidate.type === 'thread/updated' && candidate.data.workspace?.setup);
    }, 'the setup row');
    expect(row.data.workspace!.setup).to.include({ exitCode: 0, output: 'set up\n' });
    const cleared = await t.json(`/projects/${project.id}`, { method: 'PATCH', body: { setupScript: null, defaultWorkspace: 'checkout' } });
    expect(cleared).to.not.have.property('setupScript');
  });

  it('a failing setup script is the first prompt’s failed turn, with the exit code and the output', async () => {
    await t.json(`/projects/${project.id}`, { method: 'PATCH', body: { setupScript: 'echo cannot install; exit 3' } });
    try {
      const response = await newThread({ workspace: 'worktree', prompt: 'Start' });
      const thread = await response.json();
      expect(response.status, JSON.stringify(thread)).to.equal(201);
      const completed = await eventually(async () => {
        const rows: Array<{ type: string; data: { status?: string; error?: { message: string } } }> = await t.json(
          `/threads/${thread.id}/events`,
        );
        return rows.find((row) => row.type === 'turn/completed');
      }, 'the failed turn');
      expect(completed.data.status).to.equal('failed');
      expect(completed.data.error!.message).to.contain('exit code 3').and.to.contain('cannot install');
      expect((await t.json(`/threads/${thread.id}`)).workspace.state).to.equal('ready');
      expect(agent.opened.filter((opened) => opened.threadId === thread.id).map((opened) => opened.cwd)).to.deep.equal([]); // no agent ran
    } finally {
      await t.json(`/projects/${project.id}`, { method: 'PATCH', body: { setupScript: null } });
    }
  });

  it('archive removes the worktree (removed), unarchive brings every file back (ready); delete keeps the branch unless asked', async () => {
    const thread = await (await newThread({ workspace: 'worktree' })).json();
    const folder = thread.workspace.path;
    writeFileSync(path.join(folder, 'draft.txt'), 'not committed\n');
    writeFileSync(path.join(folder, 'README.md'), '# changed\n');
    const archived = await t.json(`/threads/${thread.id}`, { method: 'PATCH', body: { archived: true } });
    expect(archived.workspace.state).to.equal('removed');
    expect(existsSync(folder)).to.equal(false);
    const back = await t.json(`/threads/${thread.id}`, { method: 'PATCH', body: { archived: false } });
    expect(back.workspace.state).to.equal('ready');
    expect(readFileSync(path.join(back.workspace.path, 'draft.txt'), 'utf8')).to.equal('not committed\n');
    expect(readFileSync(path.join(back.workspace.path, 'README.md'), 'utf8')).to.equal('# changed\n');

    expect((await t.api(`/threads/${thread.id}`, { method: 'DELETE' })).status).to.equal(204);
    expect(existsSync(back.workspace.path)).to.equal(false);
    expect(git(checkout, 'branch', '--list', thread.workspace.branch)).to.contain(thread.workspace.branch);
    expect(await t.api(`/environments/${thread.environmentId}`).then((r) => r.status)).to.equal(404);

    const other = await (await newThread({ workspace: 'worktree' })).json();
    expect((await t.api(`/threads/${other.id}?deleteBranch=true`, { method: 'DELETE' })).status).to.equal(204);
    expect(git(checkout, 'branch', '--list', other.workspace.branch)).to.equal('');
    expect(git(checkout, 'status', '--porcelain')).to.equal(''); // the checkout never changed
  });
});
