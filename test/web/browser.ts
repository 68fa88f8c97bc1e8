import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/** Debian's Chromium (`apt-get install -y chromium`); the tests never download a browser of their own. */
export const CHROMIUM = process.env.ATS_CHROMIUM ?? '/usr/bin/chromium';

/** Flags for a closed network and a root user: no background calls home, no sandbox (CI runs as root). */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Where screenshots go (gitignored); CI keeps the folder as the run's artifacts. */
export const ARTIFACTS = path.resolve(__dirname, '..', '..', 'test-artifacts', 'web');

/**
 * Skips the calling suite, with one line saying why, where Chromium is missing; `ATS_REQUIRE_BROWSER=1`
 * (set by .ci/run, which installs it) turns that into a failure.
 */
export function requireBrowser(context: Mocha.Context): void {
  if (existsSync(CHROMIUM)) return;
  if (process.env.ATS_REQUIRE_BROWSER === '1')
    throw new Error(`ATS_REQUIRE_BROWSER=1 but there is no Chromium at ${CHROMIUM} (apt-get install -y chromium)`);
  console.log(`      browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set ATS_CHROMIUM)`);
  context.skip();
}

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** A fresh profile in a temp folder, removed on close. */
export async function launchBrowser(viewport = { width: 1280, height: 800 }): Promise<Browser> {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'ats-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport,
  });
  return {
    context,
    close: async () => {
      await context.close().catch(() => undefined);
      // Chromium may still be writing its profile as it exits: retried, not left behind.
      rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    },
  };
}
