import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { fakeProvider } from '../helpers/fakes/provider';
import { startTestServer, TEST_TOKEN, type TestServer } from '../helpers/server/harness';
import { askingProvider, buildPage, WAIT } from './approvalPage';
import { launchBrowser, requireBrowser, type Browser } from './browser';

interface Shown {
  title: string;
  body: string;
  tag: string;
}

/**
 * Issue 31's notifications in Chromium, with the permission granted in the browser context: a browser
 * notification (captured by a stand-in `Notification` put in before the page runs) for a turn that ends or a
 * question that comes in a thread the user is not looking at, none for the thread in view, and a click on it
 * opening the thread. A hidden tab is emulated by `document.visibilityState`.
 */
describe('the web page in a real browser: notifications for threads out of view (issue 31)', function () {
  this.timeout(120_000);
  let t: TestServer;
  let folder: string;
  let browser: Browser | undefined;
  let page: Page;
  const ids: Record<string, string> = {};

  before(async function () {
    requireBrowser(this);
    buildPage();
    folder = mkdtempSync(path.join(os.tmpdir(), 'ats-web-notify-'));
    t = await startTestServer({ providers: [fakeProvider('pi'), askingProvider('claude', 'anthropic/sonnet', 'npm test')] });
    const project = await t.json<{ id: string }>('/projects', {
      body: { name: 'notify', source: { type: 'local_path', path: folder, hostId: t.server.hostId } },
    });
    const thread = async (title: string, provider: string, model: string) =>
      (ids[title] = (
        await t.json<{ id: string }>('/threads', { body: { projectId: project.id, provider, model, title, permissionMode: 'ask' } })
      ).id);
    await thread('In view', 'pi', 'm');
    await thread('Elsewhere', 'pi', 'm');
    await thread('Asks', 'claude', 'anthropic/sonnet');
    browser = await launchBrowser();
    await browser.context.grantPermissions(['notifications'], { origin: t.server.url });
    await browser.context.addInitScript(() => {
      const shown: Array<{ title: string; body: string; tag: string }> = [];
      let hidden = false;
      const clickers: Array<() => void> = [];
      class CapturedNotification {
        static get permission() {
          return 'granted';
        }
        static requestPermission = async () => 'granted';
        onclick: (() => void) | null = null;
        constructor(title: string, options: { body?: string; tag?: string } = {}) {
          shown.push({ title, body: options.body ?? '', tag: options.tag ?? '' });
          clickers.push(() => this.onclick?.());
        }
        close() {}
      }
      Object.defineProperty(window, 'Notification', { value: CapturedNotification, configurable: true, writable: true });
      Object.defineProperty(document, 'visibilityState', { get: () => (hidden ? 'hidden' : 'visible'), configurable: true });
      Object.assign(window, {
        __shown: shown,
        __clickNotification: (index: number) => clickers[index]!(),
        __setHidden: (value: boolean) => {
          hidden = value;
          document.dispatchEvent(new Event('visibilitychange'));
        },
      });
    });
    page = await browser.context.newPage();
    await page.goto(`${t.server.url}/#token=${TEST_TOKEN}`);
    await page.getByRole('link', { name: /Elsewhere/ }).waitFor(WAIT);
    await page.getByRole('link', { name: /In view/ }).click();
    await page.getByRole('log').waitFor(WAIT);
  });
  after(async () => {
    await browser?.close();
    await t?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  const shown = () => page.evaluate(() => (window as unknown as { __shown: Shown[] }).__shown);
  const shownCount = (count: number) =>
    page.waitForFunction((n) => (window as unknown as { __shown: Shown[] }).__shown.length >= n, count, WAIT);
  /** A real turn: the fake agent echoes the prompt and ends it. */
  const turn = (title: string, prompt: string) => t.json(`/threads/${ids[title]}/messages`, { body: { prompt } });

  it('a turn ending in the thread in view shows no notification; one ending in another thread does, and the title counts it (issue 31)', async () => {
    await turn('In view', 'Look here');
    await page.getByRole('log').getByText('echo: Look here').waitFor(WAIT);
    await turn('Elsewhere', 'Work over there');
    await shownCount(1);
    expect(await shown()).to.deep.equal([{ title: 'Elsewhere', body: 'The turn completed.', tag: ids['Elsewhere'] }]);
    await page.waitForFunction(() => document.title.startsWith('(1) '), undefined, WAIT);
  });

  it('clicking the notification opens its thread, and viewing it clears the count (issue 31)', async () => {
    await page.evaluate(() => (window as unknown as { __clickNotification: (index: number) => void }).__clickNotification(0));
    await page.waitForFunction((id) => location.hash.endsWith(encodeURIComponent(id)), ids['Elsewhere']!, WAIT);
    await page.locator('.thread-link.current', { hasText: 'Elsewhere' }).waitFor(WAIT);
    await page.waitForFunction(() => !document.title.startsWith('('), undefined, WAIT);
  });

  it('in a hidden tab the open thread notifies too: a turn completed and a question waiting (issue 31)', async () => {
    await page.evaluate(() => (window as unknown as { __setHidden: (hidden: boolean) => void }).__setHidden(true));
    await turn('Elsewhere', 'Once more');
    await shownCount(2);
    expect((await shown())[1]).to.deep.equal({ title: 'Elsewhere', body: 'The turn completed.', tag: ids['Elsewhere'] });
    await turn('Asks', 'Run the tests');
    await shownCount(3);
    expect((await shown())[2]).to.deep.equal({ title: 'Asks', body: 'The agent needs your answer.', tag: ids['Asks'] });
    await page.evaluate(() => (window as unknown as { __setHidden: (hidden: boolean) => void }).__setHidden(false));
    // Back in the tab: the open thread's event is seen; the thread waiting for an answer still counts.
    await page.waitForFunction(() => document.title.startsWith('(1) '), undefined, WAIT);
  });
});
