import { expect } from 'chai';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { TestServer } from '../helpers/server/harness';
import { turnRows } from '../server/search/searchRows';
import { catalogProvider, WAIT } from './approvalPage';
import { ARTIFACTS } from './browser';
import { startPageSuite, type PageSuite } from './pageSuite';

/** Issue 31's search box in Debian's Chromium: Ctrl+Shift+F, hits with marked words, Enter opens the thread. */
describe('the web page in a real browser: search across threads (issue 31)', function () {
  this.timeout(120_000);
  let suite: PageSuite;
  let t: TestServer;
  let page: Page;
  let threadId: string;
  let otherId: string;

  before(async function () {
    suite = await startPageSuite(this, 'work', [catalogProvider('pi', 'fake/pi-model')]);
    t = suite.t;
    const create = (title: string) =>
      t.json<{ id: string }>('/threads', { body: { projectId: suite.projectId, provider: 'pi', model: 'fake/pi-model', title } });
    threadId = (await create('Fix the login')).id;
    otherId = (await create('Something else')).id;
    await t.server.store.append(
      turnRows(threadId, 1, { user: 'why does the flamingo test fail', agent: 'The flamingo fixture is stale.', command: 'npm test' }),
    );
    await t.server.store.append(turnRows(otherId, 1, { user: 'rename the pelican module', agent: 'Renamed.', command: 'git mv a b' }));
    await t.server.search.flushed();
    page = await suite.signIn();
  });
  after(() => suite?.close());

  it('Ctrl+Shift+F opens the search, lists hits with the word marked, and Enter opens the hit’s thread', async () => {
    await page.keyboard.press('Control+Shift+F');
    const dialog = page.getByRole('dialog', { name: 'Search threads' });
    await dialog.getByRole('combobox', { name: 'Search threads' }).fill('flamingo');
    const options = dialog.getByRole('option');
    await options.nth(1).waitFor(WAIT);
    expect(await options.count()).to.equal(2);
    expect(await options.first().textContent()).to.contain('Fix the login');
    expect(await dialog.locator('mark').allTextContents()).to.deep.equal(['flamingo', 'flamingo']);
    await page.screenshot({ path: path.join(ARTIFACTS, 'search-box.png') });
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached', ...WAIT });
    expect(await page.evaluate(() => location.hash)).to.equal(`#/threads/${threadId}`);
  });

  it('arrows move the highlight and Enter opens the highlighted hit; Escape closes; Tab leaves the box for its filter', async () => {
    const dialog = page.getByRole('dialog', { name: 'Search threads' });
    const box = dialog.getByRole('combobox', { name: 'Search threads' });
    const threadOf = async (index: number) =>
      (await dialog.getByRole('option').nth(index).textContent())!.includes('Fix the login') ? threadId : otherId;

    await page.keyboard.press('Control+Shift+F');
    // The dialog shows the last answer until the new one comes: wait for a hit only the typed words find.
    await box.fill('module');
    await dialog.getByRole('option').filter({ hasText: 'pelican' }).waitFor(WAIT);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached', ...WAIT });

    await page.keyboard.press('Control+Shift+F');
    await box.fill('the');
    await dialog.getByRole('option').nth(3).waitFor(WAIT); // a title and three rows (the last answer had one)
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('type'))).to.equal('checkbox');
    await box.focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    expect(await dialog.getByRole('option').nth(1).getAttribute('aria-selected')).to.equal('true');
    const second = await threadOf(1);
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached', ...WAIT });
    expect(await page.evaluate(() => location.hash)).to.equal(`#/threads/${second}`);
  });
});
