import { expect } from 'chai';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { TestServer } from '../helpers/server/harness';
import { askingProvider, WAIT } from './approvalPage';
import { ARTIFACTS } from './browser';
import { startPageSuite, type PageSuite } from './pageSuite';

/**
 * The whole round of issue 27 with no row written by the test: an agent asks through the daemon
 * (`askUser`), the server's thread list says the thread waits (`runtime.activity`), the page's click goes
 * through the real `POST /threads/:id/approvals/:approvalId`, and the agent goes on with the answer.
 */
describe('the web page in a real browser: an agent asks, the list says so, a click answers it through the server (issue 27)', function () {
  this.timeout(120_000);
  let suite: PageSuite;
  let t: TestServer;
  let page: Page;
  let threadId: string;

  before(async function () {
    suite = await startPageSuite(this, 'asks', [askingProvider('claude', 'anthropic/sonnet', 'npm test')]);
    t = suite.t;
    const thread = await t.json<{ id: string }>('/threads', {
      body: { projectId: suite.projectId, provider: 'claude', model: 'anthropic/sonnet', title: 'Ask me', permissionMode: 'ask' },
    });
    threadId = thread.id;
    page = await suite.signIn();
    await page.getByRole('link', { name: /Ask me/ }).waitFor(WAIT);
  });
  after(() => suite?.close());

  it('a thread whose agent asks is marked in the list and counted in the title, with the thread closed', async () => {
    await t.json(`/threads/${threadId}/messages`, { body: { prompt: 'Run the tests' } });
    await page
      .getByRole('link', { name: /Ask me/ })
      .getByText('Needs your answer')
      .waitFor(WAIT);
    expect(await page.title()).to.match(/^\(1\) /);
  });

  it('the card answers through the server: the agent goes on and the card records "Allowed by you"', async () => {
    await page.getByRole('link', { name: /Ask me/ }).click();
    const card = page.getByRole('log').getByRole('region', { name: 'Approval needed' });
    expect(await card.getByLabel('Command').textContent({ timeout: WAIT.timeout })).to.equal('npm test');
    await card.getByRole('button', { name: 'Allow once' }).click();
    await page.getByRole('log').getByText('Allowed by you').waitFor(WAIT);
    await page.getByRole('log').getByText('Decision: allow_once.').waitFor(WAIT);
    await page.getByRole('log').getByText('Completed', { exact: true }).waitFor(WAIT);
    await page
      .getByRole('link', { name: /Ask me/ })
      .getByText('Needs your answer')
      .waitFor({ ...WAIT, state: 'detached' });
    await page.screenshot({ path: path.join(ARTIFACTS, 'approval-04-live.png') });
  });
});
