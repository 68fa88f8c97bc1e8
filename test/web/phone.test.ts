import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { fakeProvider } from '../helpers/fakes/provider';
import { startTestServer, TEST_TOKEN, type TestServer } from '../helpers/server/harness';
import { buildPage, WAIT } from './approvalPage';
import { ARTIFACTS, launchBrowser, requireBrowser, type Browser } from './browser';

const PHONE = { width: 420, height: 860 };

/**
 * Issue 31 on a phone, in Chromium at 420×860: the lists and a thread are separate screens with a back
 * button, the prompt box is on screen, and the page is installable (a manifest with icons, a service
 * worker that keeps the shell for a second load and never an API answer). Screenshots go to
 * test-artifacts/web/phone-*.png.
 */
describe('the web page in a real browser on a phone: separate screens, installable (issue 31)', function () {
  this.timeout(120_000);
  let t: TestServer;
  let folder: string;
  let browser: Browser | undefined;
  let page: Page;

  before(async function () {
    requireBrowser(this);
    buildPage();
    folder = mkdtempSync(path.join(os.tmpdir(), 'ats-web-phone-'));
    t = await startTestServer({ providers: [fakeProvider('pi')] });
    const project = await t.json<{ id: string }>('/projects', {
      body: { name: 'pocket', source: { type: 'local_path', path: folder, hostId: t.server.hostId } },
    });
    const thread = await t.json<{ id: string }>('/threads', {
      body: { projectId: project.id, provider: 'pi', model: 'm', title: 'On the go' },
    });
    await t.json(`/threads/${thread.id}/messages`, { body: { prompt: 'Hello from the bus' } });
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await launchBrowser(PHONE);
    page = await browser.context.newPage();
    await page.goto(`${t.server.url}/#token=${TEST_TOKEN}`);
  });
  after(async () => {
    await browser?.close();
    await t?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  const backButton = () => page.getByRole('link', { name: 'Back to threads' });
  const threadLink = () => page.getByRole('link', { name: /On the go/ });

  it('the first screen is the list of threads, with no thread or back button beside it (issue 31)', async () => {
    await threadLink().waitFor(WAIT);
    expect(await page.locator('.sidebar').isVisible()).to.equal(true);
    expect(await page.locator('main').isVisible()).to.equal(false);
    expect(await backButton().isVisible()).to.equal(false);
    const list = (await page.locator('.sidebar').boundingBox())!;
    expect(list.width).to.be.greaterThan(PHONE.width - 10);
    await page.screenshot({ path: path.join(ARTIFACTS, 'phone-list.png') });
  });

  it('opening a thread shows only the thread, its prompt box on screen, and a back button that returns to the list (issue 31)', async () => {
    await threadLink().click();
    await page.getByRole('log').getByText('echo: Hello from the bus').waitFor(WAIT);
    expect(await page.locator('.sidebar').isVisible()).to.equal(false);
    expect(await backButton().isVisible()).to.equal(true);
    const prompt = (await page.locator('.composer textarea').boundingBox())!;
    expect(prompt.y + prompt.height).to.be.at.most(PHONE.height);
    const thread = (await page.locator('main').boundingBox())!;
    expect(thread.x).to.equal(0);
    expect(thread.width).to.equal(PHONE.width);
    await page.screenshot({ path: path.join(ARTIFACTS, 'phone-thread.png') });
    // A keyboard taking the lower half (Chrome's resizes-content): the prompt box moves up with the frame.
    await page.setViewportSize({ width: PHONE.width, height: 430 });
    await page.waitForFunction(() => document.documentElement.style.getPropertyValue('--viewport-height') === '430px', undefined, WAIT);
    const above = (await page.locator('.composer textarea').boundingBox())!;
    expect(above.y).to.be.at.least(0);
    expect(above.y + above.height).to.be.at.most(430);
    await page.setViewportSize(PHONE);
    await backButton().click();
    await threadLink().waitFor(WAIT);
    expect(await page.locator('main').isVisible()).to.equal(false);
  });

  it('the manifest is linked, valid JSON with a name and icons the server serves, with a theme colour (issue 31)', async () => {
    const href = await page.locator('link[rel="manifest"]').evaluate((link) => (link as HTMLLinkElement).href);
    const answer = await page.request.get(href);
    expect(answer.status()).to.equal(200);
    expect(answer.headers()['content-type']).to.match(/^application\/manifest\+json/);
    const manifest = (await answer.json()) as { name: string; display: string; icons: Array<{ src: string; sizes: string; type: string }> };
    expect(manifest.name).to.equal('Agent threads');
    expect(manifest.display).to.equal('standalone');
    expect(manifest.icons.map((icon) => icon.sizes)).to.include.members(['192x192', '512x512']);
    for (const icon of manifest.icons) {
      const served = await page.request.get(new URL(icon.src, href).href);
      expect(served.status(), icon.src).to.equal(200);
      expect(served.headers()['content-type']).to.match(new RegExp(`^${icon.type.replace('+', '\\+')}`));
    }
    expect(await page.locator('meta[name="theme-color"]').getAttribute('content')).to.match(/^#/);
  });

  it('the service worker registers; a second load works from it with the API answering, and no API answer is cached (issue 31)', async () => {
    const sw = await page.request.get(`${t.server.url}/sw.js`);
    expect(sw.headers()['content-type']).to.match(/javascript/);
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    const answers: Array<{ url: string; fromWorker: boolean }> = [];
    page.on('response', (response) => answers.push({ url: response.url(), fromWorker: response.fromServiceWorker() }));
    await page.reload();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, WAIT);
    // The API still answers through the network: the lists fill and the thread opens with its rows.
    await threadLink().click();
    await page.getByRole('log').getByText('echo: Hello from the bus').waitFor(WAIT);
    const bundle = answers.find((answer) => /\/assets\/[^/]+\.js$/.test(answer.url));
    expect(bundle?.fromWorker, 'the bundle on the second load').to.equal(true);
    const api = answers.filter((answer) => new URL(answer.url).pathname.startsWith('/api/'));
    expect(api.length).to.be.greaterThan(0);
    expect(api.filter((answer) => answer.fromWorker)).to.deep.equal([]);
    const cached = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
      return urls;
    });
    expect(cached.filter((url) => new URL(url).pathname.includes('/api/'))).to.deep.equal([]);
    expect(cached.some((url) => url.endsWith('/index.html'))).to.equal(true);
    expect(cached.some((url) => /\/assets\/[^/]+\.js$/.test(url))).to.equal(true);
    expect(cached.some((url) => url.endsWith('/icon-192.png'))).to.equal(true);
  });
});
