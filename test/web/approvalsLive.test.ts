import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { startTestServer, TEST_TOKEN, type TestServer } from '../helpers/server/harness';
import { askingProvider, buildPage, WAIT } from './approvalPage';
import { ARTIFACTS, launchBrowser, requireBrowser, type Browser } from './browser';

/**
 * The whole round of issue 27 with no row written by the test: an agent asks through the daemon
 * (`askUser`), the server's thread list says the thread waits (`runtime.activity`), the page's click goes
 * through the real `POST /threads/:id/approvals/:approvalId`, and the agent goes on with the answer.
 */
describe('the web page in a real browser: an agent asks, the list says so, a click answers it through the server (issue 27)', function () {
  this.timeout(120_000);
  let t: TestServer;
  let folder: string;
  let browser: Browser | undefined;
  let page: Page;
  let threadId: string;

  before(async function () {
    requireBrowser(this);
    buildPage();
    folder = mkdtempSync(path.join(os.tmpdir(), 'ats-web-asks-'));
    t = await startTestServer({ providers: [askingProvider('claude', 'anthropic/sonnet', 'npm test')] });
    const project = await t.json<{ id: string }>('/projects', {
      body: { name: 'asks', source: { type: 'local_path', path: folder, hostId: t.server.hostId } },
    });
    const thread = await t.json<{ id: string }>('/threads', {
      body: { projectId: project.id, provider: 'claude', model: 'anthropic/sonnet', title: 'Ask me', permissionMode: 'ask' },
    });
    threadId = thread.id;
    browser = await launchBrowser();
    page = await browser.context.newPage();
    await page.goto(`${t.server.url}/#token=${TEST_TOKEN}`);
    await page.getByRole('link', { name: /Ask me/ }).waitFor(WAIT);
  });
  after(async () => {
    await browser?.close();
    await t?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

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
