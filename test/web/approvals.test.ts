import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { startTestServer, TEST_TOKEN, type TestServer } from '../helpers/server/harness';
import { answerCalls, buildPage, catalogProvider, question, rowWriter, WAIT } from './approvalPage';
import { ARTIFACTS, launchBrowser, requireBrowser, type Browser } from './browser';

const APPROVALS = '**/api/v1/threads/*/approvals/*';

/**
 * Issue 27's page in Debian's Chromium: a thread created with an agent and a permission mode, and the rows
 * an asking agent leaves (a question, its answer, a plan, its thinking) shown live, after a reload, and in
 * the thread list. The rows are appended as the daemon's pipeline appends them (the store that publishes to
 * SSE); the approvals route is answered at the page's edge, as the server answers it, since no daemon asked
 * these questions.
 */
describe('the web page in a real browser: agents, permission modes, approval cards, the plan and thinking (issue 27)', function () {
  this.timeout(120_000);
  let t: TestServer;
  let folder: string;
  let browser: Browser | undefined;
  let page: Page;
  let threadId: string;
  let write: ReturnType<typeof rowWriter>;

  before(async function () {
    requireBrowser(this);
    buildPage();
    folder = mkdtempSync(path.join(os.tmpdir(), 'ats-web-approvals-'));
    t = await startTestServer({ providers: [catalogProvider('pi', 'fake/pi-model'), catalogProvider('claude', 'anthropic/sonnet')] });
    const project = await t.json<{ id: string }>('/projects', {
      body: { name: 'asks', source: { type: 'local_path', path: folder, hostId: t.server.hostId } },
    });
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await launchBrowser();
    page = await browser.context.newPage();
    await page.goto(`${t.server.url}/#token=${TEST_TOKEN}`);
    await page.getByRole('heading', { name: 'Hosts' }).waitFor(WAIT);
    await page.goto(`${t.server.url}/#/projects/${project.id}/threads/new`);
  });
  after(async () => {
    await browser?.close();
    await t?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  const shot = (name: string) => page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
  const log = () => page.getByRole('log');
  const card = () => log().getByRole('region', { name: 'Approval needed' });
  const threadLink = () => page.getByRole('link', { name: /Run the tests/ });

  it('a new thread is created with the chosen agent and permission mode, shown in its header', async () => {
    await page
      .getByLabel('Agent')
      .locator('option', { hasText: 'Claude Code' })
      .waitFor({ ...WAIT, state: 'attached' });
    expect(await page.getByLabel('Agent').locator('option').allTextContents()).to.deep.equal(['pi', 'Claude Code']);
    expect(await page.getByLabel('Permission mode').inputValue()).to.equal('accept-edits');
    await page.getByLabel('Agent').selectOption({ label: 'Claude Code' });
    expect(await page.getByRole('listbox', { name: 'Models' }).getByRole('option').allTextContents()).to.deep.equal(['anthropic/sonnet']);
    await page.getByLabel('Permission mode').selectOption('ask');
    await page.getByLabel('Title').fill('Run the tests');
    const created = page.waitForRequest((request) => request.method() === 'POST' && request.url().endsWith('/api/v1/threads'));
    await page.getByRole('button', { name: 'Create thread' }).click();
    expect((await created).postDataJSON()).to.deep.include({ provider: 'claude', model: 'anthropic/sonnet', permissionMode: 'ask' });
    await page.getByRole('heading', { name: 'Run the tests' }).waitFor(WAIT);
    threadId = decodeURIComponent(/#\/threads\/([^/]+)/.exec(page.url())![1]!);
    write = rowWriter(t.server, threadId);
    const header = page.locator('.thread-head');
    await header.getByText('Claude Code').waitFor(WAIT);
    expect(await header.getByLabel('Mode').inputValue()).to.equal('ask');
  });

  it("changing the mode while a turn runs says the server's problem once and keeps the mode", async () => {
    const detail = 'A turn is running: change the mode once it ends.';
    const sent = await answerCalls(page, `**/api/v1/threads/${threadId}`, 409, { code: 'thread_busy', title: 'Busy', detail, status: 409 });
    await page.locator('.thread-head').getByLabel('Mode').selectOption('full-access');
    await page.getByRole('alert').filter({ hasText: detail }).waitFor(WAIT);
    expect(sent).to.deep.equal([{ method: 'PATCH', body: { permissionMode: 'full-access' } }]);
    expect(await page.getByText(detail).count()).to.equal(1);
    expect(await page.locator('.thread-head').getByLabel('Mode').inputValue()).to.equal('ask');
    await page.unroute(`**/api/v1/threads/${threadId}`);
  });

  it("a question shows as a card with the command, the paths and the agent's options; the list and the title mark the thread", async () => {
    await write('turn-1', [
      ['turn/started', { origin: 'client' }],
      ['item/started', { item: { type: 'reasoning', id: 'think-1', text: '' } }],
      ['item/reasoning/delta', { itemId: 'think-1', delta: 'The tests first, ' }],
      question('ap-1', 'npm test -- --grep approvals'),
    ]);
    await card().waitFor(WAIT);
    expect(await card().getByLabel('Command').textContent()).to.equal('npm test -- --grep approvals');
    expect(await card().getByLabel('Paths').textContent()).to.equal('/work/demo');
    const buttons = card().getByRole('button');
    expect(await buttons.allTextContents()).to.deep.equal(['Allow once', 'Always allow', 'Reject']);
    expect(await card().getByRole('button', { name: 'Allow once' }).getAttribute('class')).to.equal(null);
    expect(await card().getByRole('button', { name: 'Reject' }).getAttribute('class')).to.equal('secondary');
    await threadLink().getByText('Needs your answer').waitFor(WAIT);
    expect(await page.title()).to.match(/^\(1\) Run the tests/);
    await shot('approval-01-card');
  });

  it('the thinking block is collapsed and streams', async () => {
    const thinking = log().locator('details.reasoning');
    expect(await thinking.getAttribute('open')).to.equal(null);
    expect(await thinking.locator('summary').textContent()).to.contain('Thinking');
    await write('turn-1', [['item/reasoning/delta', { itemId: 'think-1', delta: 'then the page.' }]]);
    await thinking.locator('summary').click();
    await thinking.getByText('The tests first, then the page.').waitFor(WAIT);
  });

  it('a reload shows the same pending card, read back from the rows', async () => {
    await page.reload();
    await card().getByRole('button', { name: 'Allow once' }).waitFor(WAIT);
    expect(await card().getByLabel('Command').textContent()).to.equal('npm test -- --grep approvals');
    expect(await log().getByRole('region', { name: 'Approval needed' }).count()).to.equal(1);
    await threadLink().getByText('Needs your answer').waitFor(WAIT);
  });

  it('a click posts the chosen option, and the approval/resolved row turns the card into "Allowed by you"', async () => {
    const sent = await answerCalls(page, APPROVALS, 200, { optionId: 'allow-once', optionKind: 'allow_once' });
    await card().getByRole('button', { name: 'Allow once' }).click();
    await card().getByText('Allowed', { exact: true }).waitFor(WAIT);
    expect(sent).to.deep.equal([{ method: 'POST', body: { optionId: 'allow-once' } }]);
    expect(page.url()).to.contain(threadId);
    await write('turn-1', [
      ['approval/resolved', { approvalId: 'ap-1', decidedBy: 'user', optionId: 'allow-once', optionKind: 'allow_once' }],
    ]);
    const record = log().locator('[data-approval-id="ap-1"]');
    await record.getByText('Allowed by you').waitFor(WAIT);
    expect(await record.textContent()).to.equal('Allowed by you · npm test -- --grep approvals');
    expect(await card().count()).to.equal(0);
    await threadLink()
      .getByText('Needs your answer')
      .waitFor({ ...WAIT, state: 'detached' });
    expect(await page.title()).to.match(/^Run the tests/);
    await shot('approval-02-allowed');
  });

  it('a question answered elsewhere (409) waits for its row; an unknown one (404) says the problem', async () => {
    await write('turn-1', [question('ap-2', 'rm -rf build'), question('ap-3', 'git push')]);
    await log().locator('[data-approval-id="ap-3"]').getByRole('button', { name: 'Reject' }).waitFor(WAIT);
    await answerCalls(page, APPROVALS, 409, { code: 'approval_answered', title: 'Answered', detail: 'Already answered.', status: 409 });
    await log().locator('[data-approval-id="ap-2"]').getByRole('button', { name: 'Reject' }).click();
    await log().getByText('Already answered; waiting for the record…').waitFor(WAIT);
    await write('turn-1', [['approval/resolved', { approvalId: 'ap-2', decidedBy: 'cancelled', reason: 'the turn was stopped' }]]);
    await log().locator('[data-approval-id="ap-2"]').getByText('Cancelled: the turn was stopped').waitFor(WAIT);

    const detail = 'No question ap-3 waits on this thread.';
    await answerCalls(page, APPROVALS, 404, { code: 'approval_not_found', title: 'Not found', detail, status: 404 });
    await log().locator('[data-approval-id="ap-3"]').getByRole('button', { name: 'Reject' }).click();
    await log().getByRole('alert').filter({ hasText: detail }).waitFor(WAIT);
    expect(await log().locator('[data-approval-id="ap-3"]').getByRole('button', { name: 'Reject' }).isEnabled()).to.equal(true);
  });

  it('a question the policy allowed is one compact line with its command', async () => {
    await write('turn-1', [
      question('ap-4', 'npm run lint', 'accept-edits'),
      ['approval/resolved', { approvalId: 'ap-4', decidedBy: 'policy', optionId: 'allow-once', optionKind: 'allow_once' }],
    ]);
    const record = log().locator('[data-approval-id="ap-4"]');
    await record.waitFor(WAIT);
    expect(await record.textContent()).to.equal('Allowed by policy (accept-edits) · npm run lint');
    expect(await record.getByRole('button').count()).to.equal(0);
  });

  it('the plan is a checklist, updated in place by the latest turn/plan/updated row', async () => {
    await write('turn-1', [
      [
        'turn/plan/updated',
        {
          plan: [
            { step: 'Read the failing test', status: 'inProgress' },
            { step: 'Fix the fold', status: 'pending', priority: 'high' },
          ],
        },
      ],
    ]);
    const plan = log().getByRole('region', { name: 'Plan' });
    await plan.getByText('0 of 2 done').waitFor(WAIT);
    await plan.evaluate((element) => ((element as HTMLElement & { __first?: boolean }).__first = true));
    await write('turn-1', [
      [
        'turn/plan/updated',
        {
          plan: [
            { step: 'Read the failing test', status: 'completed' },
            { step: 'Fix the fold', status: 'inProgress', priority: 'high' },
            { step: 'Run the suite', status: 'pending' },
          ],
        },
      ],
    ]);
    await plan.getByText('1 of 3 done').waitFor(WAIT);
    expect(await log().getByRole('region', { name: 'Plan' }).count()).to.equal(1);
    expect(await plan.evaluate((element) => (element as HTMLElement & { __first?: boolean }).__first)).to.equal(true);
    expect(await plan.getByRole('listitem').allTextContents()).to.deep.equal([
      '✓ Read the failing test (done)',
      '◐ Fix the fold (in progress) · high',
      '○ Run the suite (to do)',
    ]);
    await shot('approval-03-plan');
  });
});
