import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { eventually } from '../helpers/server/eventually';
import { npmStart, type StartedProcess } from '../helpers/server/process';
import { launchBrowser, type Browser } from './browser';

const WAIT = { timeout: 60_000 };

/** The service as a newcomer starts it, with what it printed: the page's URL, its sign-in link and host. */
export interface StartedService {
  /** From `listening on http://127.0.0.1:<port>` (port 0: the one the kernel gave). */
  url: string;
  /** From `open http://…/#token=…`: the link a person pastes into a browser. */
  signInUrl: string;
  /** The token in that link's fragment, for the test's own API calls. */
  token: string;
  /** From `embedded host host_…`: this machine's host. */
  hostId: string;
  /** The temp folder passed as `--data-dir`, removed by `stop`. */
  dataDir: string;
  process: StartedProcess;
  /** An API call with the bearer token: GET without a body, POST with one; throws on a status ≥ 400. */
  api<T = any>(pathname: string, body?: unknown): Promise<T>;
  /** A fresh Chromium profile, not signed in yet; closed by `stop`. */
  openBrowser(viewport?: { width: number; height: number }): Promise<Browser>;
  /** Opens the printed sign-in link in a fresh Chromium and waits for the lists' heading. */
  signIn(viewport?: { width: number; height: number }): Promise<{ browser: Browser; page: Page }>;
  /** Ctrl-C to the whole process group, every browser `signIn` opened closed, the data dir removed. */
  stop(): Promise<void>;
}

/**
 * Runs `npm start -- --port 0 --data-dir <temp>` as a child process (`prestart` builds dist/ when stale), with
 * `env` on top of this process's, and reads what it prints: the URL, the sign-in link, the embedded host.
 * `repo`: another checkout's service (a bench comparing this code with an older commit's).
 */
export async function startService(env: NodeJS.ProcessEnv = {}, repo?: string): Promise<StartedService> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ats-started-'));
  let started: StartedProcess;
  try {
    started = await npmStart(['--port', '0', '--data-dir', dataDir], env, repo);
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const printed = (pattern: RegExp) => started.lines.map((line) => pattern.exec(line)?.[1]).find(Boolean);
  const signInUrl = await eventually(() => printed(/^open (https?:\/\/\S+#token=\S+)$/), 'the sign-in link on stdout', 30_000);
  const hostId = printed(/embedded host (host_[^;\s]+)/);
  if (!hostId) throw new Error(`no embedded host in: ${started.lines.join('\n')}`);
  const token = decodeURIComponent(new URL(signInUrl).hash.slice('#token='.length));
  const browsers: Browser[] = [];
  const openBrowser = async (viewport?: { width: number; height: number }) => {
    const browser = await launchBrowser(viewport);
    browsers.push(browser);
    return browser;
  };
  return {
    url: started.url,
    signInUrl,
    token,
    hostId,
    dataDir,
    process: started,
    async api(pathname, body) {
      const response = await fetch(`${started.url}/api/v1${pathname}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (response.status >= 400) throw new Error(`${pathname} → ${response.status}: ${await response.text()}`);
      return response.json();
    },
    openBrowser,
    async signIn(viewport) {
      const browser = await openBrowser(viewport);
      const page = await browser.context.newPage();
      await page.goto(signInUrl);
      await page.getByRole('heading', { name: 'Hosts' }).waitFor(WAIT);
      return { browser, page };
    },
    async stop() {
      for (const browser of browsers) await browser.close();
      await started.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
