import { expect } from 'chai';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { GitDiff } from '../../src/web/changes/types';
import type { TestServer } from '../helpers/server/harness';
import { catalogProvider, WAIT } from './approvalPage';
import { ARTIFACTS } from './browser';
import { startPageSuite, type PageSuite } from './pageSuite';
import type { SeenCall } from './lifecycleRoutes';
import { serveReview } from './reviewRoutes';

const NOTES = ['# Notes', 'Run npm test first.', 'Then ship.'];
const appTs = {
  path: 'src/app.ts',
  status: 'modified' as const,
  binary: false,
  additions: 1,
  deletions: 1,
  hunks: [
    {
      oldStart: 1,
      oldLines: 2,
      newStart: 1,
      newLines: 2,
      lines: [
        { kind: 'del' as const, text: 'export const answer = 41;' },
        { kind: 'add' as const, text: 'export const answer = 42;' },
        { kind: 'context' as const, text: 'export default answer;' },
      ],
    },
  ],
};
const notesMd = {
  path: 'notes.md',
  status: 'added' as const,
  binary: false,
  additions: 3,
  deletions: 0,
  hunks: [{ oldStart: 0, oldLines: 0, newStart: 1, newLines: 3, lines: NOTES.map((text) => ({ kind: 'add' as const, text })) }],
};
const diff = (scope: GitDiff['scope'], files: GitDiff['files']): GitDiff => ({
  scope,
  base: 'abc123',
  head: 'worktree',
  files,
  truncated: false,
});

/** 1,000 files of 50 changed lines each: the view must stay a screen of rows, not 50,000. */
function bigDiff(): GitDiff {
  const lines = Array.from({ length: 50 }, (_, index) => ({ kind: 'add' as const, text: `export const value${index} = ${index};` }));
  return diff(
    'uncommitted',
    Array.from({ length: 1000 }, (_, index) => ({
      path: `src/mod${Math.floor(index / 100)}/file${index}.ts`,
      status: 'added' as const,
      binary: false,
      additions: 50,
      deletions: 0,
      hunks: [{ oldStart: 0, oldLines: 0, newStart: 1, newLines: 50, lines }],
    })),
  );
}

/**
 * Issue 38's page in Debian's Chromium: the Changes view beside the transcript (files with counts, scope
 * switch, a new file all added, unified and split, a big change kept to a screen of rows), a comment on a line
 * kept as a chip above the prompt box and sent with the next prompt, and the sent card in the transcript. The
 * review routes are answered at the page's edge as the issue gives them (reviewRoutes.ts); changesLive.test.ts
 * runs the loop against the server's own routes with a real agent.
 */
describe('the web page in a real browser: the Changes view and review comments (issue 38)', function () {
  this.timeout(120_000);
  let suite: PageSuite;
  let t: TestServer;
  let page: Page;
  let seen: SeenCall[];
  let threadId: string;
  let bigId: string;

  const changes = () => page.getByRole('region', { name: 'Changes' });
  const fileList = () => changes().getByRole('listbox', { name: 'Changed files' });
  const diffList = () => changes().getByRole('listbox', { name: /^Diff/ });
  const shot = (name: string) => page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
  const open = async (id: string) => {
    await page.evaluate((hash) => (location.hash = hash), `#/threads/${id}`);
    await page.getByRole('textbox', { name: 'Prompt' }).waitFor(WAIT);
  };

  before(async function () {
    suite = await startPageSuite(this, 'review', [catalogProvider('pi', 'fake/pi-model')]);
    t = suite.t;
    const create = (title: string) =>
      t.json<{ id: string }>('/threads', { body: { projectId: suite.projectId, provider: 'pi', model: 'fake/pi-model', title } });
    threadId = (await create('Write the notes')).id;
    bigId = (await create('A big change')).id;
    const big = bigDiff();
    page = await suite.signIn(async (context) => {
      ({ seen } = await serveReview(context, t.server, (id, scope) => {
        if (id === bigId) return scope === 'uncommitted' ? big : undefined;
        if (scope === 'uncommitted') return diff('uncommitted', [notesMd, appTs]);
        return scope === 'turn' ? diff('turn', [appTs]) : undefined;
      }));
    });
    await open(threadId);
  });
  after(() => suite?.close());

  it('"Changes" opens the view beside the transcript: the changed files with their counts, the totals', async () => {
    await page.getByRole('button', { name: /^Changes/ }).click();
    await fileList().getByRole('option').first().waitFor(WAIT);
    expect(await fileList().getByRole('option').allTextContents()).to.deep.equal(['notes.mdA +3 −0', 'app.tssrcM +1 −1']);
    expect(await changes().locator('.changes-total').textContent()).to.equal('2 files +4 −1');
    // Asked for once, whole: its files are read as they arrive.
    expect(seen.filter((call) => call.path.includes('/diff'))).to.deep.equal([
      { method: 'GET', path: `/api/v1/threads/${threadId}/diff?scope=uncommitted`, body: null },
    ]);
    // Beside the transcript, not over it: both on screen, the prompt box too.
    const [log, view] = await Promise.all([page.getByRole('log').boundingBox(), changes().boundingBox()]);
    expect(view!.x).to.be.at.least(log!.x + log!.width - 1);
    expect(await page.getByRole('textbox', { name: 'Prompt' }).isVisible()).to.equal(true);
    await shot('changes-01-view');
  });

  it('a newly written file is all added: every line of notes.md on the new side, none on the old', async () => {
    const notes = diffList().locator('.diff-line');
    expect(await notes.evaluateAll((rows) => rows.slice(0, 3).map((row) => row.className))).to.deep.equal([
      'diff-row diff-line add',
      'diff-row diff-line add',
      'diff-row diff-line add',
    ]);
    expect(await diffList().getByRole('option', { name: 'Added 2: Run npm test first.' }).count()).to.equal(1);
    expect(await page.getByText('No diff.').count()).to.equal(0);
  });

  it('the scope switch reads the other scope: "Last turn" lists only what the last turn changed, Uncommitted both again', async () => {
    expect(
      await changes()
        .getByRole('radio')
        .evaluateAll((radios) => radios.map((radio) => radio.parentElement?.textContent)),
    ).to.deep.equal(['Uncommitted', 'Last turn', 'Unified', 'Split']);
    await changes().getByRole('radio', { name: 'Last turn' }).check();
    await fileList()
      .getByRole('option', { name: /notes\.md/ })
      .waitFor({ ...WAIT, state: 'detached' });
    expect(await fileList().getByRole('option').allTextContents()).to.deep.equal(['app.tssrcM +1 −1']);
    expect(seen.at(-1)).to.deep.include({ path: `/api/v1/threads/${threadId}/diff?scope=turn` });
    await changes().getByRole('radio', { name: 'Uncommitted' }).check();
    await fileList()
      .getByRole('option', { name: /notes\.md/ })
      .waitFor(WAIT);
  });

  it('split puts a deletion beside the addition that replaced it; a file chosen in the list comes to the top', async () => {
    await changes().getByRole('radio', { name: 'Split' }).check();
    await fileList()
      .getByRole('option', { name: /app\.ts/ })
      .click();
    const pair = diffList().getByRole('option', { name: 'Added 1: export const answer = 42;' });
    expect(await pair.locator('.diff-half.old').textContent()).to.equal('1export const answer = 41;');
    expect(await pair.locator('.diff-half.new').textContent()).to.equal('1export const answer = 42;');
    await shot('changes-02-split');
    await changes().getByRole('radio', { name: 'Unified' }).check();
  });

  it('a click on a line opens a comment on it; saved, it is a chip above the prompt box, and the line is marked', async () => {
    await diffList().getByRole('option', { name: 'Added 2: Run npm test first.' }).click();
    const field = changes().getByRole('textbox', { name: 'Comment on notes.md:2' });
    expect(await field.evaluate((element) => element === document.activeElement)).to.equal(true);
    await field.fill('Say why the tests come first.');
    await changes().getByRole('button', { name: 'Add comment' }).click();
    const chips = page.getByRole('list', { name: 'Review comments to send' });
    await chips.getByText('notes.md:2').waitFor(WAIT);
    expect(seen.at(-1)).to.deep.equal({
      method: 'POST',
      path: `/api/v1/threads/${threadId}/review-comments`,
      body: { path: 'notes.md', line: 2, side: 'new', scope: 'uncommitted', text: 'Say why the tests come first.' },
    });
    expect(await diffList().locator('.diff-line.commented').count()).to.equal(1);
    expect(await page.getByRole('button', { name: /^Changes \(1\)/ }).count()).to.equal(1);
  });

  it('by keyboard: arrows move along the diff, Enter comments on the line, Escape cancels and gives focus back to the diff', async () => {
    await diffList().focus();
    await page.keyboard.press('Home');
    // Row 0 is the file's header, row 1 its hunk: two down is the first line.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const field = changes().getByRole('textbox', { name: 'Comment on notes.md:1' });
    await field.waitFor(WAIT);
    await page.keyboard.press('Escape');
    await field.waitFor({ ...WAIT, state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).to.match(/^Diff/);
    expect(seen.filter((call) => call.method === 'POST').length).to.equal(1);
  });

  it('the chips go with the next prompt (reviewCommentIds), leave the box, and the transcript shows them as a card', async () => {
    await page.getByRole('textbox', { name: 'Prompt' }).fill('Address the review');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('list', { name: 'Review comments to send' }).waitFor({ ...WAIT, state: 'detached' });
    expect(seen.find((call) => call.path.endsWith('/messages'))?.body).to.deep.equal({
      prompt: 'Address the review',
      reviewCommentIds: ['rc_1'],
    });
    const card = page.getByRole('log').getByRole('region', { name: 'Review comments' });
    await card.waitFor(WAIT);
    expect(await card.locator('.review-card-title').textContent()).to.equal(' Review comments (1)');
    expect(await card.locator('.review-where').textContent()).to.equal('notes.md:2');
    expect(await card.locator('.review-snippet').textContent()).to.equal('Run npm test first.');
    expect(await card.locator('.review-text').textContent()).to.equal('Say why the tests come first.');
    // The prompt as typed above the card, not the block the agent received after it.
    expect(await page.getByRole('log').locator('.user-text').last().textContent()).to.equal('Address the review');
    await shot('changes-03-sent-card');
  });

  it('a chip × deletes its draft', async () => {
    await diffList().getByRole('option', { name: 'Added 3: Then ship.' }).click();
    await changes().getByRole('textbox', { name: 'Comment on notes.md:3' }).fill('Ship where?');
    await changes().getByRole('button', { name: 'Add comment' }).click();
    await page.getByRole('button', { name: 'Delete the comment on notes.md:3' }).click();
    await page.getByRole('list', { name: 'Review comments to send' }).waitFor({ ...WAIT, state: 'detached' });
    expect(seen.filter((call) => call.method === 'DELETE').map((call) => call.path)).to.deep.equal([
      `/api/v1/threads/${threadId}/review-comments/rc_2`,
    ]);
  });

  it('a 1,000-file, 50,000-line change: the list and the diff stay a screen of rows (under 2,000 elements), scrolled anywhere', async () => {
    await open(bigId);
    await page.getByRole('button', { name: /^Changes/ }).click();
    await diffList().locator('.diff-line').first().waitFor(WAIT);
    await changes().locator('.changes-total', { hasText: '1000 files +50000 −0' }).waitFor(WAIT);
    expect(seen.filter((call) => call.path.startsWith(`/api/v1/threads/${bigId}/diff`)).map((call) => call.path)).to.deep.equal([
      `/api/v1/threads/${bigId}/diff?scope=uncommitted`,
    ]);
    const elements = () => page.evaluate(() => document.querySelectorAll('*').length);
    expect(await elements()).to.be.below(2000);
    await fileList().getByRole('option').first().click();
    await fileList().focus();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await diffList()
      .getByRole('option', { name: /src\/mod9\/file999\.ts/ })
      .waitFor(WAIT);
    expect(await elements()).to.be.below(2000);
    await diffList().evaluate((element) => (element.scrollTop = element.scrollHeight / 2));
    await diffList()
      .getByRole('option', { name: /file499\.ts|file500\.ts/ })
      .first()
      .waitFor(WAIT);
    expect(await elements()).to.be.below(2000);
  });

  it('on a phone (420 px) the Changes button sits beside Send, the header keeps its height, and the view opens above the prompt box', async () => {
    await page.setViewportSize({ width: 420, height: 860 });
    await open(threadId);
    const headerHeight = () => page.locator('.thread-head').evaluate((element) => element.getBoundingClientRect().height);
    const before = await headerHeight();
    const button = page.getByRole('button', { name: /^Changes/ });
    expect(await button.count()).to.equal(1);
    expect(await button.evaluate((element) => element.closest('.composer') !== null)).to.equal(true);
    await button.click();
    await fileList().getByRole('option').first().waitFor(WAIT);
    expect(await headerHeight()).to.equal(before);
    expect(await page.getByRole('textbox', { name: 'Prompt' }).isVisible()).to.equal(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).to.equal(true);
    await shot('changes-04-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
