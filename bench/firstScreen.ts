/**
 * npm run bench:first-screen — the lists after sign-in (issue 29: "lists appear within 300 ms of sign-in on a
 * quiet machine"), in Debian's Chromium against the service as `npm start` starts it (a child process, port 0,
 * a temp data dir) holding one host, 3 projects and 12 threads.
 *
 * A run opens the printed sign-in link (`…/#token=…`) in a fresh tab and times, from that navigation's start,
 * the host and project lists painted (both in the DOM, then a frame). Two kinds of run, RUNS each:
 *  - cold: a new Chromium profile, as the first time someone opens the link (nothing cached);
 *  - warm: the same profile again with its cookie cleared (the page's files cached, sign-in again).
 * Baseline in the same run: the same page opened with no token and no cookie, to its sign-in form painted
 * (the page's own load: HTML, script, styles, one `GET /session` answered 401). Also the server's answer to
 * the three list requests from Node, and where a run's time goes (the page's Resource Timing entries).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser, type Browser } from '../test/web/browser';
import { startService } from '../test/web/startedService';
import { firstScreenProbe, timelineOf, type Timeline } from './lib/firstScreenProbe';

const RUNS = Number(process.env.BENCH_FIRST_SCREEN_RUNS ?? 7);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const spread = (values: number[]) => `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`;

async function main(): Promise<void> {
  const agentDir = mkdtempSync(path.join(os.tmpdir(), 'ats-bench-first-'));
  const service = await startService({
    ATS_AGENT_PROVIDERS: 'pi',
    ATS_AGENT_ISOLATION: 'none',
    PI_CODING_AGENT_DIR: agentDir,
    ANTHROPIC_API_KEY: '',
    ANTHROPIC_OAUTH_TOKEN: '',
  });
  const browsers: Browser[] = [];
  try {
    for (const name of ['api', 'web', 'docs']) {
      const project = await service.api('/projects', { name, source: { type: 'local_path', path: agentDir, hostId: service.hostId } });
      for (let i = 0; i < 4; i++)
        await service.api('/threads', {
          projectId: project.id,
          provider: 'pi',
          model: 'anthropic/claude-sonnet-4-5',
          title: `${name} ${i}`,
        });
    }

    const serverAnswers: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const started = performance.now();
      await Promise.all(['/hosts', '/projects', '/threads'].map((route) => service.api(route)));
      serverAnswers.push(performance.now() - started);
    }

    const open = async (page: Page, url: string, done: string): Promise<Timeline> => {
      await page.goto(url, { waitUntil: 'commit' });
      await page.waitForFunction(() => (window as unknown as { __paintedAt?: number }).__paintedAt !== undefined, undefined, {
        timeout: 60_000,
      });
      await page.locator(done).first().waitFor({ timeout: 60_000 });
      return timelineOf(page);
    };
    const fresh = async () => {
      const browser = await launchBrowser();
      browsers.push(browser);
      await browser.context.addInitScript(firstScreenProbe);
      return browser;
    };

    const baseline: Timeline[] = [];
    const cold: Timeline[] = [];
    const warm: Timeline[] = [];
    for (let run = 0; run < RUNS; run++) {
      const browser = await fresh();
      // Baseline first: its own cold load, with no token and no cookie, to the sign-in form.
      const form = await browser.context.newPage();
      baseline.push(await open(form, `${service.url}/`, 'button:has-text("Sign in")'));
      await form.close();
      await browser.close();

      const coldBrowser = await fresh();
      const first = await coldBrowser.context.newPage();
      cold.push(await open(first, service.signInUrl, '.project'));
      await first.close();
      await coldBrowser.context.clearCookies();
      const again = await coldBrowser.context.newPage();
      warm.push(await open(again, service.signInUrl, '.project'));
      await again.close();
      await coldBrowser.close();
    }

    console.log(`first screen after sign-in, ${RUNS} runs of each (npm start, 1 host, 3 projects, 12 threads)`);
    console.log(
      `  load average ${os
        .loadavg()
        .map((load) => load.toFixed(1))
        .join(' ')} on ${os.cpus().length} cores`,
    );
    const line = (label: string, values: number[]) =>
      console.log(`  ${label.padEnd(66)} median ${median(values).toFixed(0).padStart(4)} ms  (${spread(values)})`);
    line('server: /hosts + /projects + /threads answered, from Node (parallel)', serverAnswers);
    line(
      'baseline: no token → the sign-in form painted (the page’s own load)',
      baseline.map((t) => t.paintedAt),
    );
    for (const [kind, runs] of [
      ['cold', cold],
      ['warm', warm],
    ] as const) {
      console.log(`  ${kind} (${kind === 'cold' ? 'new profile, nothing cached' : 'files cached, cookie cleared'}):`);
      line(
        '  HTML answered',
        runs.map((t) => t.htmlEnd),
      );
      line(
        '  script and styles answered',
        runs.map((t) => t.assetsEnd),
      );
      line(
        '  POST /session sent',
        runs.map((t) => t.sessionStart),
      );
      line(
        '  POST /session answered',
        runs.map((t) => t.sessionEnd),
      );
      line(
        '  the three list requests sent',
        runs.map((t) => t.listsStart),
      );
      line(
        '  the three list requests answered',
        runs.map((t) => t.listsEnd),
      );
      line(
        '  host and project lists in the DOM',
        runs.map((t) => t.listsAt),
      );
      line(
        '  sign-in navigation → host and project lists painted',
        runs.map((t) => t.paintedAt),
      );
      line(
        '  of which after POST /session answered',
        runs.map((t) => t.paintedAt - t.sessionEnd),
      );
    }
    const ratio = median(cold.map((t) => t.paintedAt)) / median(baseline.map((t) => t.paintedAt));
    console.log(`  cold lists / baseline form: ${ratio.toFixed(2)}×`);
    const worst = Math.max(...cold.map((t) => t.paintedAt), ...warm.map((t) => t.paintedAt));
    console.log(
      `  goal ≤ 300 ms (issue 29, on a quiet machine): median cold ${median(cold.map((t) => t.paintedAt)).toFixed(0)} ms, warm ${median(warm.map((t) => t.paintedAt)).toFixed(0)} ms, max ${worst.toFixed(0)} ms`,
    );
  } finally {
    for (const browser of browsers) await browser.close();
    await service.stop();
    rmSync(agentDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
