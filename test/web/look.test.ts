import { expect } from 'chai';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { scriptByPrompt, startFakeModelServer, type FakeModelServer } from '../helpers/fakes/modelServer';
import { eventually } from '../helpers/server/eventually';
import { createPiSandbox, FAKE_MODEL, type PiSandbox } from '../providers/pi/piSandbox';
import { ARTIFACTS, requireBrowser, type Browser } from './browser';
import { startService, type StartedService } from './startedService';

const WAIT = { timeout: 60_000 };
const ANSWER = '## What I found\n\nOne widget, `fancyWidget.ts`, with 60 constants.\n\n### Next\n\n- Group them.';

/**
 * Issue 29's page in Debian's Chromium, against the service as `npm start` runs it (a child process on a free
 * port, a temp data dir, pi on the suite's fake model server as the local model): a first screen that never
 * says "nothing here" about things that exist, a favicon, light and dark themes, the file preview beside the
 * conversation, one-line quick-open rows, and lists that tell look-alike projects and threads apart. The
 * transcript is a real turn: a command, a file read and a Markdown answer. Screenshots go to
 * test-artifacts/web/look-*.png. The model picker, which needs a catalog the test controls, is in
 * modelPicker.test.ts.
 */
describe('the web page through npm start: first screen, themes, preview beside the thread (issue 29)', function () {
  this.timeout(180_000);
  let model: FakeModelServer;
  let sandbox: PiSandbox;
  let service: StartedService | undefined;
  let folder: string;
  let browser: Browser;
  let page: Page;
  let threadId: string;

  before(async function () {
    requireBrowser(this);
    model = await startFakeModelServer(
      scriptByPrompt({
        'Tidy the widgets': [
          { kind: 'toolCall', toolName: 'bash', args: { command: 'ls src/widgets' } },
          { kind: 'toolCall', toolName: 'read', args: { path: 'src/widgets/fancyWidget.ts' } },
          { kind: 'text', chunks: [ANSWER] },
        ],
      }),
    );
    sandbox = createPiSandbox({ baseUrl: model.baseUrl });
    folder = sandbox.projectDir;
    mkdirSync(path.join(folder, 'src', 'widgets'), { recursive: true });
    const source = Array.from({ length: 60 }, (_, index) => `export const line${index + 1} = ${index + 1};`).join('\n');
    writeFileSync(path.join(folder, 'src', 'widgets', 'fancyWidget.ts'), `${source}\n`);
    writeFileSync(path.join(folder, 'README.md'), '# Demo\n');
    service = await startService({
      ATS_AGENT_PROVIDERS: 'pi',
      PI_CODING_AGENT_DIR: sandbox.agentDir,
      // Agents in the service's process start in well under a second; this suite looks at the page, not at
      // the agent's isolation (firstRun.test.ts runs pi isolated, the default).
      ATS_AGENT_ISOLATION: 'none',
    });
    const api = service.api.bind(service);
    const project = (name: string) =>
      api<{ id: string }>('/projects', { name, source: { type: 'local_path', path: folder, hostId: service!.hostId } });
    const projectId = (await project('demo')).id;
    await project('twin');
    await project('twin');
    const thread = (title: string, prompt?: string) =>
      api<{ id: string }>('/threads', { projectId, provider: 'pi', model: FAKE_MODEL, title, ...(prompt ? { prompt } : {}) });
    threadId = (await thread('Tidy the widgets', 'Tidy the widgets, please.')).id;
    await thread('Fix the build');
    await thread('Fix the build');
    await eventually(
      async () => {
        const rows = await api<Array<{ type: string }>>(`/threads/${threadId}/events?afterSeq=0&limit=1000`);
        return rows.some((row) => row.type === 'turn/completed') ? true : undefined;
      },
      'the agent turn on the fake model',
      60_000,
    );
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await service.openBrowser();
    page = await browser.context.newPage();
  });
  after(async () => {
    await service?.stop();
    await model?.close();
    sandbox?.remove();
  });

  const shot = (name: string) => page.screenshot({ path: path.join(ARTIFACTS, `look-${name}.png`) });
  const threadUrl = (id: string) => `${service!.url}/#/threads/${encodeURIComponent(id)}`;
  const background = () => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);

  it('the first screen never says "No host" or "No project" when both exist, and the lists follow sign-in at once (issue 29)', async () => {
    const first = await browser.context.newPage();
    // Sampled from navigation on: every DOM change is checked for the two "nothing here" sentences, and for
    // "Signing in…": with the link's token the frame shows at once, its lists "Loading…".
    await first.addInitScript(() => {
      const seen: string[] = [];
      Object.assign(window, { __emptySaid: seen });
      new MutationObserver(() => {
        const text = document.body?.textContent ?? '';
        for (const sentence of ['No host has connected yet.', 'No project yet.', 'Signing in…'])
          if (text.includes(sentence) && !seen.includes(sentence)) seen.push(sentence);
        if (!('__listsAt' in window) && document.querySelector('.hosts .host') && document.querySelector('.project'))
          Object.assign(window, { __listsAt: performance.now() });
      }).observe(document, { childList: true, subtree: true, characterData: true });
    });
    const notFound: string[] = [];
    first.on('response', (response) => void (response.status() === 404 && notFound.push(response.url())));
    await first.goto(service!.signInUrl);
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
    // The lists are asked beside the token's trade for the cookie, not a round trip after it.
    const order = await first.evaluate(() => {
      const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      const of = (pathname: string) => entries.find((entry) => new URL(entry.name).pathname === pathname)!;
      return { signInAnswered: of('/api/v1/session').responseEnd, listsAsked: of('/api/v1/hosts').startTime };
    });
    expect(order.listsAsked, 'the host list asked before sign-in answered').to.be.below(order.signInAnswered);
    // What the lists waited for: the entry's code only, the styles inside the page. The thread view's
    // Markdown and highlighting (~200 KB) run after the lists are shown; they may be fetched before, as a
    // `prefetch` (idle priority, not run).
    const before = await first.evaluate(() => {
      const listsAt = (window as unknown as { __listsAt: number }).__listsAt;
      const prefetched = new Set(Array.from(document.querySelectorAll<HTMLLinkElement>('link[rel="prefetch"]'), (link) => link.href));
      const entries = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter(
        (entry) => entry.startTime < listsAt,
      );
      const scripts = entries.filter((entry) => new URL(entry.name).pathname.endsWith('.js') && !prefetched.has(entry.name));
      return {
        scriptBytes: scripts.reduce((sum, entry) => sum + entry.decodedBodySize, 0),
        stylesheets: entries.filter((entry) => new URL(entry.name).pathname.endsWith('.css')).length,
      };
    });
    expect(before.scriptBytes, 'script bytes run before the lists were shown').to.be.below(100_000);
    expect(before.stylesheets, 'stylesheet requests before the lists were shown').to.equal(0);
    expect(await first.getByRole('button', { name: /Quick open/ }).isEnabled()).to.equal(true);
    // The home page offers the next step: a thread in the newest projects.
    await first.getByRole('link', { name: 'Start a thread in demo' }).waitFor(WAIT);
    await first.screenshot({ path: path.join(ARTIFACTS, 'look-home.png') });
    expect(notFound, 'requests answered 404 on load').to.deep.equal([]);
    await first.close();
  });

  it('the favicon is served (200, SVG) from the page build (issue 29)', async () => {
    await page.goto(service!.signInUrl);
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

  it('the printed URL pasted into a tab already on the sign-in form signs in without a reload (issue 29)', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await browser.context.clearCookies();
    await page.goto(`${service!.url}/`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor(WAIT);
    await page.evaluate((token) => void (location.hash = `#token=${encodeURIComponent(token)}`), service!.token);
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
