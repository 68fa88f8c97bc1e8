import { expect } from 'chai';
import { realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { git, makeForgeStandIn, makeShipRepo } from '../daemon/git/ship/shipFixture';
import type { TestServer } from '../helpers/server/harness';
import { suiteTempDirs } from '../helpers/temp/suiteDirs';
import { catalogProvider, WAIT } from './approvalPage';
import { ARTIFACTS } from './browser';
import { startPageSuite, type PageSuite } from './pageSuite';

/**
 * Issue 39's Git menu in Chromium against the real routes and the real git wing: a worktree thread's change
 * committed from Commit…, pushed to a local bare origin from Push, a pull request opened through the forge
 * CLI stand-in from Open pull request…, its badge in the header, and each action a note in the transcript.
 */
describe('the web page: the thread header’s Git menu commits, pushes and opens a pull request (issue 39)', function () {
  this.timeout(120_000);
  const tempDir = suiteTempDirs();
  const pathBefore = process.env.PATH;
  let suite: PageSuite;
  let t: TestServer;
  let page: Page;
  let origin: string;
  let forge: ReturnType<typeof makeForgeStandIn>;
  let worktree: string;

  before(async function () {
    const root = realpathSync(await tempDir('ats-web-ship-'));
    const repo = makeShipRepo(root);
    origin = repo.origin;
    git(repo.checkout, 'switch', '-q', 'main');
    // The forge stand-in on the PATH of this process only, which is the test server's embedded daemon.
    forge = makeForgeStandIn(root);
    process.env.PATH = forge.env.PATH;
    suite = await startPageSuite(this, 'ship', [catalogProvider('pi', 'fake/pi-model')]);
    t = suite.t;
    const project = await t.json<{ id: string }>('/projects', {
      body: { name: 'ship demo', source: { type: 'local_path', path: repo.checkout, hostId: t.server.hostId } },
    });
    const thread = await t.json<{ id: string; workspace: { path: string } }>('/threads', {
      body: { projectId: project.id, provider: 'pi', model: 'fake/pi-model', title: 'Ship it', workspace: 'worktree' },
    });
    worktree = thread.workspace.path;
    writeFileSync(path.join(worktree, 'feature.txt'), 'a feature\n');
    page = await suite.signIn();
    await page.goto(`${t.server.url}/#/threads/${encodeURIComponent(thread.id)}`);
  });
  after(async () => {
    process.env.PATH = pathBefore;
    await suite?.close();
  });

  const gitMenu = async (item: string) => {
    await page.getByRole('button', { name: 'Git' }).click();
    await page.getByRole('menuitem', { name: item }).click();
  };

  it('Commit… says what it does, commits the change on the thread’s branch, and the transcript notes it', async () => {
    await gitMenu('Commit…');
    const dialog = page.getByRole('dialog', { name: 'Commit' });
    expect(await dialog.textContent()).to.contain('Nothing is pushed.');
    await dialog.getByLabel('Commit message').fill('Add the feature');
    await dialog.getByRole('button', { name: 'Commit' }).click();
    await page
      .getByRole('status')
      .getByText(/^Committed [0-9a-f]{7} \(1 file\)$/)
      .waitFor(WAIT);
    await page
      .getByRole('log')
      .getByText(/Add the feature \(1 file\)/)
      .waitFor(WAIT);
    expect(git(worktree, 'log', '-1', '--format=%s').trim()).to.equal('Add the feature');
    expect(git(worktree, 'status', '--porcelain')).to.equal('');
  });

  it('Push sends the branch to origin; Open pull request… opens it through the forge CLI and shows its badge', async () => {
    await gitMenu('Push');
    await page
      .getByRole('status')
      .getByText(/^Pushed .+ to origin$/)
      .waitFor(WAIT);
    const branch = git(worktree, 'branch', '--show-current').trim();
    expect(git(origin, 'rev-parse', `refs/heads/${branch}`).trim()).to.equal(git(worktree, 'rev-parse', 'HEAD').trim());

    await gitMenu('Open pull request…');
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'Title' }).fill('The feature');
    await dialog.getByRole('button', { name: /^Open/ }).click();
    await page.locator('.pr-badge', { hasText: '#7 open' }).waitFor(WAIT);
    await page.getByRole('log').getByText('#7 https://github.com/acme/project/pull/7').waitFor(WAIT);
    const create = forge.calls().find((call) => call.args[0] === 'pr' && call.args[1] === 'create');
    expect(create?.args).to.include('--title').and.include('The feature');
    await page.screenshot({ path: path.join(ARTIFACTS, 'ship-01-pull-request.png') });
  });
});
