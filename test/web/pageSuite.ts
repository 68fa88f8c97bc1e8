import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import type { AgentProvider } from '../../src/daemon/providers/agentProvider';
import { startTestServer, TEST_TOKEN, type TestServer } from '../helpers/server/harness';
import { buildPage, WAIT } from './approvalPage';
import { launchBrowser, requireBrowser, type Browser } from './browser';

/** What a page suite's `before` sets up: a server with one project on a temp folder. */
export interface PageSuite {
  t: TestServer;
  projectId: string;
  /**
   * A browser signed in to the server; closed by `close`. `beforeSignIn` runs on its context first (e.g. to
   * answer some routes at the page's edge).
   */
  signIn(beforeSignIn?: (context: BrowserContext) => Promise<void>): Promise<Page>;
  /** Another tab of the signed-in browser (the sign-in cookie is shared). */
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

/**
 * The setup the page suites share: skip without a browser, build the page, a test server running
 * `providers` with one project named `name` on a fresh temp folder; `signIn` opens the printed URL in
 * Chromium and waits for the lists. `close` stops the browser and the server and removes the folder.
 */
export async function startPageSuite(context: Mocha.Context, name: string, providers: AgentProvider[]): Promise<PageSuite> {
  requireBrowser(context);
  buildPage();
  const folder = mkdtempSync(path.join(os.tmpdir(), `ats-web-${name}-`));
  const t = await startTestServer({ providers });
  const project = await t.json<{ id: string }>('/projects', {
    body: { name, source: { type: 'local_path', path: folder, hostId: t.server.hostId } },
  });
  let browser: Browser | undefined;
  return {
    t,
    projectId: project.id,
    async signIn(beforeSignIn) {
      browser = await launchBrowser();
      await beforeSignIn?.(browser.context);
      const page = await browser.context.newPage();
      await page.goto(`${t.server.url}/#token=${TEST_TOKEN}`);
      await page.getByRole('heading', { name: 'Hosts' }).waitFor(WAIT);
      return page;
    },
    newPage() {
      if (!browser) throw new Error('signIn first');
      return browser.context.newPage();
    },
    async close() {
      await browser?.close();
      await t.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
