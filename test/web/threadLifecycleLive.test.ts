import { expect } from 'chai';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { TestServer } from '../helpers/server/harness';
import { catalogProvider, WAIT } from './approvalPage';
import { ARTIFACTS } from './browser';
import { startPageSuite, type PageSuite } from './pageSuite';

/**
 * Issue 28's page against the server's own lifecycle routes, nothing answered at the page's edge and no row
 * written by the test: two tabs on one thread, a rename made in one seen live in the other (its
 * `thread/updated` row), the agent started by a prompt, keep-running, archive refusing prompts and
 * unarchive restoring, then a delete that closes both tabs (the second by the stream's `deleted` event).
 */
describe('the web page in a real browser against the lifecycle routes: two tabs, rename, keep-running, archive, delete (issue 28)', function () {
  this.timeout(120_000);
  let suite: PageSuite;
  let t: TestServer;
  let first: Page;
  let second: Page;
  let threadId: string;

  const threadUrl = () => `${t.server.url}/#/threads/${encodeURIComponent(threadId)}`;
  const heading = (page: Page) => page.locator('.thread-head h2');
  const header = (page: Page) => page.locator('.thread-head');

  before(async function () {
    suite = await startPageSuite(this, 'live', [catalogProvider('pi', 'fake/pi-model')]);
    t = suite.t;
    threadId = (
      await t.json<{ id: string }>('/threads', {
        body: { projectId: suite.projectId, provider: 'pi', model: 'fake/pi-model', title: 'Tidy up' },
      })
    ).id;
    first = await suite.signIn();
    await first.goto(threadUrl());
    second = await suite.newPage();
    await second.goto(threadUrl());
    for (const page of [first, second]) await heading(page).getByText('Tidy up').waitFor(WAIT);
  });
  after(() => suite?.close());

  it('a rename in one tab is stored and shows live in the other', async () => {
    await header(first).getByRole('button', { name: 'Rename' }).click();
    await header(first).getByLabel('Thread title').fill('Tidy up the imports');
    await header(first).getByLabel('Thread title').press('Enter');
    await heading(second).getByText('Tidy up the imports').waitFor(WAIT);
    expect((await t.json<{ title: string }>(`/threads/${threadId}`)).title).to.equal('Tidy up the imports');
    await second.getByRole('link', { name: /Tidy up the imports/ }).waitFor(WAIT);
  });

  it('the agent starts with a prompt and the header says it runs; keep-running is stored', async () => {
    await header(first)
      .getByText(/Agent: Stopped/)
      .waitFor(WAIT);
    await first.getByLabel('Prompt').fill('hello');
    await first.getByLabel('Prompt').press('Enter');
    await first.getByRole('log').getByText('Completed', { exact: true }).waitFor(WAIT);
    await header(first).getByText('Agent: Running').waitFor(WAIT);
    await header(first)
      .getByRole('checkbox', { name: /Keep agent running/ })
      .check();
    await header(second)
      .getByRole('checkbox', { name: /Keep agent running/, checked: true })
      .waitFor({ ...WAIT, state: 'attached' });
    expect((await t.json<{ keepAgentRunning: boolean }>(`/threads/${threadId}`)).keepAgentRunning).to.equal(true);
  });

  it('archive: both tabs turn read-only, the server refuses prompts and lists it only as archived; unarchive restores it', async () => {
    await header(first).getByRole('button', { name: 'Archive' }).click();
    for (const page of [first, second])
      await page.getByRole('region', { name: 'Archived' }).getByRole('button', { name: 'Unarchive' }).waitFor(WAIT);
    const refused = await t.api(`/threads/${threadId}/messages`, { body: { prompt: 'again' } });
    expect(refused.status).to.equal(409);
    expect(((await refused.json()) as { code: string }).code).to.equal('thread_archived');
    expect((await t.json<Array<{ id: string }>>('/threads')).map((thread) => thread.id)).to.not.include(threadId);
    await first.locator('details.archived summary').click();
    await first
      .locator('details.archived')
      .getByRole('link', { name: /Tidy up the imports/ })
      .waitFor(WAIT);
    await first.screenshot({ path: path.join(ARTIFACTS, 'lifecycle-04-live-archived.png') });

    await second.getByRole('region', { name: 'Archived' }).getByRole('button', { name: 'Unarchive' }).click();
    for (const page of [first, second]) await page.getByLabel('Prompt').waitFor(WAIT);
    expect((await t.json<Array<{ id: string }>>('/threads')).map((thread) => thread.id)).to.include(threadId);
    await first.locator('details.archived').getByText('No archived thread.').waitFor(WAIT);
  });

  it('delete: the dialog counts the turn, both tabs close (the other by the deleted event), and the id answers 404', async () => {
    await header(first).getByRole('button', { name: 'Delete' }).click();
    const dialog = first.getByRole('alertdialog', { name: 'Delete thread?' });
    expect(await dialog.locator('#delete-what').textContent({ timeout: WAIT.timeout })).to.contain(
      '“Tidy up the imports” and its 1 turn will be deleted',
    );
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await first.getByRole('status').getByText('Deleted “Tidy up the imports”.').waitFor(WAIT);
    await second.getByRole('status').getByText('The thread “Tidy up the imports” was deleted.').waitFor(WAIT);
    for (const page of [first, second]) expect(await page.locator('.thread-view').count()).to.equal(0);
    expect((await t.api(`/threads/${threadId}`)).status).to.equal(404);
  });
});
