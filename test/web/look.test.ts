import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { fakeProvider, type FakeProvider } from '../helpers/fakes/provider';
import { startTestServer, TEST_TOKEN, type TestServer } from '../helpers/server/harness';
import { buildPage, rowWriter, WAIT } from './approvalPage';
import { ARTIFACTS, launchBrowser, requireBrowser, type Browser } from './browser';

/** An agent whose catalog holds `models`: [id, name, whether this host can run it]. */
function modelsProvider(id: string, models: Array<[model: string, name: string, available: boolean]>): FakeProvider {
  return {
    ...fakeProvider(id),
    listModels: async () => models.map(([model, name, available]) => ({ provider: id, model, name, available })),
  };
}

/**
 * Issue 29's page in Debian's Chromium: a first screen that never says "nothing here" about things that
 * exist, a favicon, light and dark themes, the model picker, the file preview beside the conversation,
 * one-line quick-open rows, and lists that tell look-alike projects and threads apart. Screenshots go to
 * test-artifacts/web/look-*.png.
 */
describe('the web page in a real browser: first screen, themes, model picker, preview beside the thread (issue 29)', function () {
  this.timeout(120_000);
  let t: TestServer;
  let folder: string;
  let browser: Browser | undefined;
  let page: Page;
  let projectId: string;
  let threadId: string;

  before(async function () {
    requireBrowser(this);
    buildPage();
    folder = mkdtempSync(path.join(os.tmpdir(), 'ats-web-look-'));
    mkdirSync(path.join(folder, 'src', 'widgets'), { recursive: true });
    const source = Array.from({ length: 60 }, (_, index) => `export const line${index + 1} = ${index + 1};`).join('\n');
    writeFileSync(path.join(folder, 'src', 'widgets', 'fancyWidget.ts'), `${source}\n`);
    writeFileSync(path.join(folder, 'README.md'), '# Demo\n');
    t = await startTestServer({
      providers: [
        modelsProvider('pi', [
          ['amazon-bedrock/anthropic.claude-opus', 'Claude Opus (Bedrock)', false],
          ['local/qwen2.5-coder', 'Qwen 2.5 Coder (local)', true],
          ['google/gemini-2.5-pro', 'Gemini 2.5 Pro', false],
          ['openai/gpt-4.1', 'GPT-4.1', true],
        ]),
        modelsProvider('claude', [['anthropic/claude-sonnet-4', 'Claude Sonnet 4', false]]),
      ],
    });
    const project = (name: string) =>
      t.json<{ id: string }>('/projects', { body: { name, source: { type: 'local_path', path: folder, hostId: t.server.hostId } } });
    projectId = (await project('demo')).id;
    await project('twin');
    await project('twin');
    const thread = (title: string) =>
      t.json<{ id: string }>('/threads', { body: { projectId, provider: 'pi', model: 'local/qwen2.5-coder', title } });
    threadId = (await thread('Tidy the widgets')).id;
    await thread('Fix the build');
    await thread('Fix the build');
    await rowWriter(t.server, threadId)('turn-1', [
      ['turn/started', { origin: 'client' }],
      ['item/completed', { item: { type: 'userMessage', id: 'u1', content: [{ type: 'text', text: 'Tidy the widgets, please.' }] } }],
      [
        'item/completed',
        {
          item: {
            type: 'commandExecution',
            id: 'c1',
            command: 'ls src/widgets',
            status: 'completed',
            exitCode: 0,
            aggregatedOutput: 'fancyWidget.ts\n',
          },
        },
      ],
      [
        'item/completed',
        {
          item: { type: 'dynamicToolCall', id: 't1', tool: 'read', arguments: { path: 'src/widgets/fancyWidget.ts' }, status: 'completed' },
        },
      ],
      [
        'item/completed',
        {
          item: {
            type: 'agentMessage',
            id: 'm1',
            text: '## What I found\n\nOne widget, `fancyWidget.ts`, with 60 constants.\n\n### Next\n\n- Group them.',
          },
        },
      ],
      ['turn/completed', { status: 'completed' }],
    ]);
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await launchBrowser();
    page = await browser.context.newPage();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  const shot = (name: string) => page.screenshot({ path: path.join(ARTIFACTS, `look-${name}.png`) });
  const threadUrl = (id: string) => `${t.server.url}/#/threads/${encodeURIComponent(id)}`;
  const background = () => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);

  it('the first screen never says "No host" or "No project" when both exist, and the lists follow sign-in at once (issue 29)', async () => {
    const first = await browser!.context.newPage();
    // Sampled from navigation on: every DOM change is checked for the two "nothing here" sentences.
    await first.addInitScript(() => {
      const seen: string[] = [];
      Object.assign(window, { __emptySaid: seen });
      new MutationObserver(() => {
        const text = document.body?.textContent ?? '';
        for (const sentence of ['No host has connected yet.', 'No project yet.'])
          if (text.includes(sentence) && !seen.includes(sentence)) seen.push(sentence);
        if (!('__listsAt' in window) && document.querySelector('.hosts .host') && document.querySelector('.project'))
          Object.assign(window, { __listsAt: performance.now() });
      }).observe(document, { childList: true, subtree: true, characterData: true });
    });
    const notFound: string[] = [];
    first.on('response', (response) => void (response.status() === 404 && notFound.push(response.url())));
    await first.goto(`${t.server.url}/#token=${TEST_TOKEN}`);
    await first.getByRole('region', { name: 'Project demo' }).waitFor(WAIT);
    await first.locator('.hosts .host').first().waitFor(WAIT);
    expect(await first.evaluate(() => (window as unknown as { __emptySaid: string[] }).__emptySaid)).to.deep.equal([]);
    const delay = await first.evaluate(() => {
      const signIn = performance
        .getEntriesByType('resource')
        .find((entry) => entry.name.endsWith('/api/v1/session')) as PerformanceResourceTiming;
      return (window as unknown as { __listsAt: number }).__listsAt - signIn.responseEnd;
    });
    console.log(`      lists shown ${delay.toFixed(0)} ms after sign-in answered`);
    expect(await first.getByRole('button', { name: /Quick open/ }).isEnabled()).to.equal(true);
    // The home page offers the next step: a thread in the newest projects.
    await first.getByRole('link', { name: 'Start a thread in demo' }).waitFor(WAIT);
    await first.screenshot({ path: path.join(ARTIFACTS, 'look-home.png') });
    expect(notFound, 'requests answered 404 on load').to.deep.equal([]);
    await first.close();
  });

  it('the favicon is served (200, SVG) from the page build (issue 29)', async () => {
    await page.goto(`${t.server.url}/#token=${TEST_TOKEN}`);
    await page.getByRole('region', { name: 'Project demo' }).waitFor(WAIT);
    const href = await page.locator('link[rel="icon"]').evaluate((link) => (link as HTMLLinkElement).href);
    const answer = await page.request.get(href);
    expect(answer.status()).to.equal(200);
    expect(answer.headers()['content-type']).to.match(/^image\/svg\+xml/);
  });

  it('dark mode follows prefers-color-scheme, and the theme toggle keeps a choice across a reload (issue 29)', async () => {
    await page.emulateMedia({ colorScheme: 'light' });
    const light = await background();
    await page.emulateMedia({ colorScheme: 'dark' });
    const dark = await background();
    expect(dark).not.to.equal(light);
    expect(luminance(dark)).to.be.below(luminance(light));
    await page.goto(threadUrl(threadId));
    await page.getByRole('log').getByText('What I found').waitFor(WAIT);
    await shot('dark-thread');

    await page.getByRole('button', { name: /^Theme: System/ }).click(); // system → light
    expect(await background()).to.equal(light);
    await page.reload();
    await page.getByRole('button', { name: /^Theme: Light/ }).waitFor(WAIT);
    expect(await background()).to.equal(light);
    await page.getByRole('button', { name: /^Theme: Light/ }).click(); // light → dark
    await page.getByRole('button', { name: /^Theme: Dark/ }).click(); // dark → system (dark here)
    expect(await background()).to.equal(dark);
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it("the agent's headings are smaller than the thread's title; tool calls are one collapsed line naming what they act on (issue 29)", async () => {
    const size = (selector: string) =>
      page
        .locator(selector)
        .first()
        .evaluate((element) => parseFloat(getComputedStyle(element).fontSize));
    expect(await size('.markdown h2')).to.be.below(await size('.thread-head h2'));
    const tool = page.getByRole('log').locator('details.tool-call');
    expect(await tool.getAttribute('open')).to.equal(null);
    expect(await tool.locator('summary').textContent())
      .to.contain('read')
      .and.contain('src/widgets/fancyWidget.ts');
    const summary = await tool.locator('summary').boundingBox();
    const line = await tool.locator('summary code').boundingBox();
    expect(summary!.height).to.be.below(line!.height * 2);
    await shot('light-thread');
  });

  it('the thread list shows how long ago each thread began (the time in a title) and tells look-alikes apart (issue 29)', async () => {
    const list = page.getByRole('region', { name: 'Project demo' });
    const age = list.getByRole('link', { name: /Tidy the widgets/ }).locator('time');
    expect(await age.textContent()).to.match(/^(just now|\d+ min ago)$/);
    expect(await age.getAttribute('title')).to.match(/^Created /);
    const twins = list.getByRole('link', { name: /Fix the build/ });
    const ids = await twins.locator('.short-id').allTextContents();
    expect(ids).to.have.length(2);
    expect(ids[0]).not.to.equal(ids[1]);
    expect(await list.locator('.project-folder').textContent()).to.contain(path.basename(folder));
    const projectIds = await page.getByRole('region', { name: 'Project twin' }).locator('.project-folder .short-id').allTextContents();
    expect(projectIds).to.have.length(2);
    expect(projectIds[0]).not.to.equal(projectIds[1]);
  });

  it('quick-open rows are one line each: a file icon, the name with its matched letters bold, then the folder (issue 29)', async () => {
    await page.keyboard.press('Control+P');
    const dialog = page.getByRole('dialog', { name: 'Quick open' });
    await dialog.getByRole('combobox').fill('fwid');
    const first = dialog.getByRole('option').first();
    await first.getByText('src/widgets').waitFor(WAIT);
    expect((await first.locator('mark').allTextContents()).join('').toLowerCase()).to.equal('fwid');
    const mark = await first
      .locator('mark')
      .first()
      .evaluate((element) => ({ weight: getComputedStyle(element).fontWeight, background: getComputedStyle(element).backgroundColor }));
    expect(Number(mark.weight)).to.be.at.least(700);
    expect(mark.background).to.equal('rgba(0, 0, 0, 0)');
    const row = await first.boundingBox();
    const name = await first.locator('.result-name').boundingBox();
    expect(row!.height).to.be.below(name!.height * 2);
    expect(await first.locator('svg.file-icon').count()).to.equal(1);
    await shot('quick-open');
    await dialog.getByRole('combobox').press('Enter');
  });

  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 420, height: 860 },
  ]) {
    it(`the file preview opens beside the conversation with line numbers; transcript and prompt box stay visible at ${viewport.width}×${viewport.height} (issue 29)`, async () => {
      await page.setViewportSize(viewport);
      const preview = page.getByRole('region', { name: 'File preview' });
      if ((await preview.count()) === 0) {
        await page.keyboard.press('Control+P');
        await page.getByRole('dialog', { name: 'Quick open' }).getByRole('combobox').fill('fwid');
        await page.getByRole('dialog', { name: 'Quick open' }).getByRole('option').first().getByText('src/widgets').waitFor(WAIT);
        await page.getByRole('dialog', { name: 'Quick open' }).getByRole('combobox').press('Enter');
      }
      await preview.getByText('export const line60').waitFor(WAIT);
      expect((await preview.locator('.line-numbers').textContent())?.split('\n').slice(0, 3)).to.deep.equal(['1', '2', '3']);
      expect((await preview.locator('.line-numbers').textContent())?.split('\n')).to.have.length(60);
      const shown = await preview.boundingBox();
      const transcript = await page.getByRole('log').boundingBox();
      const prompt = await page.getByRole('textbox', { name: 'Prompt' }).boundingBox();
      for (const [name, box] of [
        ['transcript', transcript],
        ['prompt box', prompt],
      ] as const) {
        expect(box, name).not.to.equal(null);
        expect(box!.height, `${name} height`).to.be.at.least(name === 'transcript' ? 120 : 40);
        expect(box!.y, `${name} top`).to.be.at.least(0);
        expect(box!.y + box!.height, `${name} bottom`).to.be.at.most(viewport.height);
        expect(overlap(box!, shown!), `${name} under the preview`).to.equal(false);
      }
      await shot(`preview-${viewport.width}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).to.be.at.most(0);
    });
  }

  it('in a narrow window the lists open as a drawer from the menu button and close on a pick (issue 29)', async () => {
    await page.getByRole('button', { name: 'Close preview' }).click();
    // Between a phone and a desktop: a phone's width shows the lists as a screen of their own (issue 31).
    await page.setViewportSize({ width: 700, height: 860 });
    const menu = page.getByRole('button', { name: 'Threads and projects' });
    expect(await page.getByRole('navigation', { name: 'Threads' }).isVisible()).to.equal(false);
    await menu.click();
    expect(await menu.getAttribute('aria-expanded')).to.equal('true');
    await page.getByRole('region', { name: 'Project demo' }).waitFor(WAIT);
    await shot('drawer-700');
    await page
      .getByRole('link', { name: /Fix the build/ })
      .first()
      .click();
    await page.getByRole('navigation', { name: 'Threads' }).waitFor({ ...WAIT, state: 'hidden' });
    await page.locator('.thread-head h2').getByText('Fix the build').waitFor(WAIT);
  });

  it('the model picker offers the models this host can run, searchable, the rest behind "Show all" (issue 29)', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${t.server.url}/#/projects/${projectId}/threads/new`);
    const models = page.getByRole('listbox', { name: 'Models' });
    const options = models.getByRole('option');
    await options.first().waitFor(WAIT);
    expect(await options.allTextContents()).to.deep.equal(['Qwen 2.5 Coder (local) — local/qwen2.5-coder', 'GPT-4.1 — openai/gpt-4.1']);
    expect(await models.getByRole('option', { selected: true }).textContent()).to.contain('local/qwen2.5-coder');
    await page.getByLabel('Model', { exact: true }).fill('gpt');
    expect(await options.allTextContents()).to.deep.equal(['GPT-4.1 — openai/gpt-4.1']);
    await page.getByLabel('Model', { exact: true }).press('Enter');
    expect(await models.getByRole('option', { selected: true }).textContent()).to.contain('openai/gpt-4.1');
    await page.getByLabel('Model', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Show all 4 models' }).click();
    expect(await options.count()).to.equal(4);
    expect(await options.filter({ hasText: 'no key' }).count()).to.equal(2);
    await shot('model-picker');
    await page.getByRole('button', { name: /Show only the 2/ }).click();

    await page.getByLabel('Title').fill('Picked from the list');
    const created = page.waitForRequest((request) => request.method() === 'POST' && request.url().endsWith('/api/v1/threads'));
    await page.getByRole('button', { name: 'Create thread' }).click();
    expect((await created).postDataJSON()).to.deep.include({ provider: 'pi', model: 'openai/gpt-4.1' });
    await page.getByRole('heading', { name: 'Picked from the list' }).waitFor(WAIT);
  });

  it('with no model this host can run, the form says which key or local model to set and chooses none (issue 29)', async () => {
    await page.goto(`${t.server.url}/#/projects/${projectId}/threads/new`);
    await page
      .getByLabel('Agent')
      .locator('option', { hasText: 'Claude Code' })
      .waitFor({ ...WAIT, state: 'attached' });
    await page.getByLabel('Agent').selectOption({ label: 'Claude Code' });
    const help = page.getByRole('note').filter({ hasText: 'No model can run on this host yet.' });
    await help.waitFor(WAIT);
    expect(await help.textContent())
      .to.contain('ANTHROPIC_API_KEY')
      .and.contain('OPENAI_API_KEY')
      .and.contain('models.json')
      .and.contain('docs/pi.md');
    expect(await page.getByText('No model chosen.').count()).to.equal(1);
    await page.getByLabel('Title').fill('Cannot run yet');
    expect(await page.getByRole('button', { name: 'Create thread' }).isDisabled()).to.equal(true);
    await shot('no-usable-model');
    await page.getByRole('button', { name: 'Show all 1 model' }).click();
    await page.getByRole('option', { name: /claude-sonnet-4/ }).click();
    expect(await page.getByRole('button', { name: 'Create thread' }).isEnabled()).to.equal(true);
  });

  it('the printed URL pasted into a tab already on the sign-in form signs in without a reload (issue 29)', async () => {
    await browser!.context.clearCookies();
    await page.goto(`${t.server.url}/`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor(WAIT);
    await page.evaluate((token) => void (location.hash = `#token=${token}`), TEST_TOKEN);
    await page.getByRole('region', { name: 'Project demo' }).waitFor(WAIT);
    expect(page.url()).not.to.contain('token');
  });
});

function overlap(
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** The relative luminance of a CSS `rgb(…)` colour, enough to tell a dark background from a light one. */
function luminance(color: string): number {
  const [r, g, b] = (color.match(/\d+(\.\d+)?/g) ?? []).map(Number);
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}
