import { expect } from 'chai';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { publishingStore } from '../../src/server/sse/publishingStore';
import type { TestServer } from '../helpers/server/harness';
import { catalogProvider, rowWriter, WAIT } from './approvalPage';
import { ARTIFACTS } from './browser';
import { startPageSuite, type PageSuite } from './pageSuite';
import { appendThreadUpdated, holdStreamUntilDeleted, serveLifecycle, type SeenCall } from './lifecycleRoutes';

/**
 * Issue 28's page in Debian's Chromium: rename in place, keep-running and the agent's process, archive and
 * the "Archived" list, delete with its confirmation, and `thread/updated` rows and `deleted` events reaching
 * an open view. The lifecycle routes are answered at the page's edge as the server will answer them
 * (lifecycleRoutes.ts); threadLifecycleLive.test.ts runs the same actions against the server's own routes.
 */
describe('the web page in a real browser: rename, archive, keep-running, delete (issue 28)', function () {
  this.timeout(120_000);
  let suite: PageSuite;
  let t: TestServer;
  let page: Page;
  let seen: SeenCall[];
  let setAgent: (threadId: string, state: 'stopped' | 'starting' | 'running') => void;
  let forget: (threadId: string) => void;
  let awayId: string;
  let threadId: string;
  let otherId: string;

  const threadUrl = (id: string) => `${t.server.url}/#/threads/${encodeURIComponent(id)}`;
  const heading = () => page.locator('.thread-head h2');
  const header = () => page.locator('.thread-head');
  const projectList = () => page.getByRole('region', { name: 'Project work' });
  const archivedList = () => page.locator('details.archived');
  const threadPath = (id: string) => `/api/v1/threads/${id}`;
  const shot = (name: string) => page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });

  before(async function () {
    suite = await startPageSuite(this, 'work', [catalogProvider('pi', 'fake/pi-model')]);
    t = suite.t;
    const create = (title: string) =>
      t.json<{ id: string }>('/threads', { body: { projectId: suite.projectId, provider: 'pi', model: 'fake/pi-model', title } });
    threadId = (await create('Fix the login')).id;
    otherId = (await create('Changed elsewhere')).id;
    awayId = (await create('Gone while away')).id;
    page = await suite.signIn(async (context) => {
      ({ seen, setAgent, forget } = await serveLifecycle(context, t.server));
    });
    await page.goto(threadUrl(threadId));
    await heading().getByText('Fix the login').waitFor(WAIT);
  });
  after(() => suite?.close());

  it('renames in place: Escape cancels and sends nothing, Enter saves, and the header and the list show the new title', async () => {
    await header().getByRole('button', { name: 'Rename' }).click();
    const field = header().getByLabel('Thread title');
    expect(await field.inputValue()).to.equal('Fix the login');
    expect(await field.evaluate((element) => element === document.activeElement)).to.equal(true);
    await field.fill('Never saved');
    await field.press('Escape');
    await heading().getByText('Fix the login').waitFor(WAIT);
    expect(seen).to.deep.equal([]);

    await header().getByRole('button', { name: 'Rename' }).click();
    await header().getByLabel('Thread title').fill('Fix the login page');
    await header().getByLabel('Thread title').press('Enter');
    await heading().getByText('Fix the login page').waitFor(WAIT);
    expect(seen).to.deep.equal([{ method: 'PATCH', path: threadPath(threadId), body: { title: 'Fix the login page' } }]);
    await projectList()
      .getByRole('link', { name: /Fix the login page/ })
      .waitFor(WAIT);
    expect(await page.evaluate(() => document.activeElement?.textContent)).to.equal('Rename');
  });

  it('a thread/updated row from elsewhere changes the open header live: title, mode, then archived', async () => {
    await page.goto(threadUrl(otherId));
    await heading().getByText('Changed elsewhere').waitFor(WAIT);
    const store = publishingStore(t.server.store, t.server.hub);
    await appendThreadUpdated(store, otherId, { title: 'Renamed in another tab', permissionMode: 'ask' });
    await heading().getByText('Renamed in another tab').waitFor(WAIT);
    expect(await header().getByLabel('Mode').inputValue()).to.equal('ask');
    await appendThreadUpdated(store, otherId, { archived: true });
    await page.getByRole('region', { name: 'Archived' }).getByRole('button', { name: 'Unarchive' }).waitFor(WAIT);
    expect(await page.getByLabel('Prompt').count()).to.equal(0);
    expect(await heading().textContent()).to.equal('Renamed in another tab');
    await page.goto(threadUrl(threadId));
    await heading().getByText('Fix the login page').waitFor(WAIT);
  });

  it('the keep-running toggle sends keepAgentRunning, and the header follows the agent process: Stopped, Starting…, Running', async () => {
    await header().getByText('Agent: Stopped').waitFor(WAIT);
    const toggle = header().getByRole('checkbox', { name: /Keep agent running/ });
    expect(await header().getByText('for extensions with timers', { exact: false }).count()).to.equal(1);
    expect(await toggle.isChecked()).to.equal(false);
    await toggle.check();
    expect(seen.at(-1)).to.deep.equal({ method: 'PATCH', path: threadPath(threadId), body: { keepAgentRunning: true } });
    await header()
      .getByRole('checkbox', { name: /Keep agent running/, checked: true })
      .waitFor({ ...WAIT, state: 'attached' });
    await page.reload();
    expect(
      await header()
        .getByRole('checkbox', { name: /Keep agent running/ })
        .isChecked({ timeout: WAIT.timeout }),
    ).to.equal(true);
    setAgent(threadId, 'starting');
    await header().getByText('Agent: Starting…').waitFor(WAIT);
    setAgent(threadId, 'running');
    await header().getByText('Agent: Running').waitFor(WAIT);
    await shot('lifecycle-01-header');
  });

  it('archive: the view turns read-only with an Unarchive in place of the prompt box, the thread moves to "Archived", a reload keeps it so', async () => {
    const archivedAsked = () => seenGets.filter((url) => url.includes('archived=true')).length;
    const seenGets: string[] = [];
    page.on('request', (request) => request.method() === 'GET' && seenGets.push(request.url()));
    expect(await archivedList().getAttribute('open')).to.equal(null);
    await header().getByRole('button', { name: 'Archive' }).click();
    const notice = page.getByRole('region', { name: 'Archived' });
    await notice.getByText('This thread is archived').waitFor(WAIT);
    expect(seen.at(-1)).to.deep.equal({ method: 'PATCH', path: threadPath(threadId), body: { archived: true } });
    expect(await page.getByLabel('Prompt').count()).to.equal(0);
    expect(await header().getByLabel('Mode').isDisabled()).to.equal(true);
    await projectList()
      .getByRole('link', { name: /Fix the login page/ })
      .waitFor({ ...WAIT, state: 'detached' });
    expect(archivedAsked()).to.equal(0);

    await archivedList().locator('summary').click();
    await archivedList()
      .getByRole('link', { name: /Fix the login page/ })
      .waitFor(WAIT);
    expect(archivedAsked()).to.be.greaterThan(0);
    await shot('lifecycle-02-archived');

    await page.reload();
    await notice.getByRole('button', { name: 'Unarchive' }).waitFor(WAIT);
    await heading().getByText('Fix the login page').waitFor(WAIT);
    expect(await archivedList().getAttribute('open')).to.equal(null);
  });

  it('unarchive brings the thread back as it was: the prompt box, its place in the project list, its keep-running', async () => {
    await page.getByRole('region', { name: 'Archived' }).getByRole('button', { name: 'Unarchive' }).click();
    await page.getByLabel('Prompt').waitFor(WAIT);
    expect(seen.at(-1)).to.deep.equal({ method: 'PATCH', path: threadPath(threadId), body: { archived: false } });
    await projectList()
      .getByRole('link', { name: /Fix the login page/ })
      .waitFor(WAIT);
    expect(
      await header()
        .getByRole('checkbox', { name: /Keep agent running/ })
        .isChecked(),
    ).to.equal(true);
  });

  it('delete asks first, naming the thread and counting its turns; Escape sends nothing; Delete closes the view and the list forgets it', async () => {
    const write = rowWriter(t.server, threadId);
    for (const turnId of ['turn-1', 'turn-2'])
      await write(turnId, [
        ['turn/started', { origin: 'client' }],
        ['turn/completed', { status: 'completed' }],
      ]);
    await page.getByRole('log').getByText('Completed', { exact: true }).nth(1).waitFor(WAIT);
    const deletes = () => seen.filter((call) => call.method === 'DELETE');

    await header().getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete thread?' });
    expect(await dialog.locator('#delete-what').textContent({ timeout: WAIT.timeout })).to.contain(
      '“Fix the login page” and its 2 turns will be deleted',
    );
    expect(await page.evaluate(() => document.activeElement?.textContent)).to.equal('Cancel');
    await shot('lifecycle-03-delete-dialog');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ ...WAIT, state: 'detached' });
    expect(deletes()).to.deep.equal([]);

    await header().getByRole('button', { name: 'Delete' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('status').getByText('Deleted “Fix the login page”.').waitFor(WAIT);
    expect(deletes()).to.deep.equal([{ method: 'DELETE', path: threadPath(threadId), body: null }]);
    expect(new URL(page.url()).hash).to.equal('#/');
    expect(await page.locator('.thread-view').count()).to.equal(0);
    expect(await page.getByRole('link', { name: /Fix the login page/ }).count()).to.equal(0);
  });

  it('another tab open on a thread closes it with a notice when the stream says it was deleted', async () => {
    const other = await suite.newPage();
    const stream = await holdStreamUntilDeleted(other, otherId);
    await other.goto(threadUrl(otherId));
    await other.locator('.thread-head h2').getByText('Renamed in another tab').waitFor(WAIT);
    await stream.opened;
    stream.send();
    await other.getByRole('status').getByText('The thread “Renamed in another tab” was deleted.').waitFor(WAIT);
    expect(new URL(other.url()).hash).to.equal('#/');
    expect(await other.locator('.thread-view').count()).to.equal(0);
    await other.close();
  });

  it('a tab whose stream is down learns of the delete from the 404 when it reconnects, and closes the view', async () => {
    const away = await suite.newPage();
    // The stream keeps failing (as while the server is unreachable): each reconnect reads the thread first.
    await away.route(`**/api/v1/threads/${awayId}/events/stream*`, (route) => route.fulfill({ status: 503, body: '' }));
    await away.goto(threadUrl(awayId));
    await away.locator('.thread-head h2').getByText('Gone while away').waitFor(WAIT);
    forget(awayId);
    await away.getByRole('status').getByText('The thread “Gone while away” was deleted.').waitFor(WAIT);
    expect(await away.locator('.thread-view').count()).to.equal(0);
    await away.close();
  });
});
