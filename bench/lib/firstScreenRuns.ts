import { launchBrowser, type Browser } from '../../test/web/browser';
import type { StartedService } from '../../test/web/startedService';
import { firstScreenProbe, timelineOf, type Timeline } from './firstScreenProbe';
import { traceLoad, type TraceBreakdown } from './firstScreenTrace';

/** One code's service and what its runs measured. */
export interface CodeRuns {
  label: string;
  service: StartedService;
  /** Server: the three lists answered to Node, ms. */
  server: number[];
  form: Timeline[];
  cold: Timeline[];
  warm: Timeline[];
  traces: TraceBreakdown[];
}

const WAIT = { timeout: 60_000 };

/**
 * Opens `url` in a tab of `browser` (else of a new profile, closed after unless `keep`) and waits for the
 * first screen: the lists (a `#token=` link), or the sign-in form. `trace`: under Chromium's tracer.
 */
export async function openTimed(
  url: string,
  want: 'lists' | 'form',
  options: { browser?: Browser; keep?: boolean; trace?: boolean } = {},
): Promise<{ timeline: Timeline; breakdown?: TraceBreakdown; browser?: Browser }> {
  const browser = options.browser ?? (await launchBrowser());
  if (!options.browser) await browser.context.addInitScript(firstScreenProbe);
  const page = await browser.context.newPage();
  const stopTrace = options.trace ? await traceLoad(page) : undefined;
  await page.goto(url, { waitUntil: 'commit' });
  await page.waitForFunction(() => (window as unknown as { __paintedAt?: number }).__paintedAt !== undefined, undefined, WAIT);
  await page
    .locator(want === 'lists' ? '.project' : 'button:has-text("Sign in")')
    .first()
    .waitFor(WAIT);
  const timeline = await timelineOf(page);
  const breakdown = await stopTrace?.('first-screen-painted');
  await page.close();
  if (options.keep || options.browser) return { timeline, breakdown, browser };
  await browser.close();
  return { timeline, breakdown };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const spread = (values: number[]) => `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`;
const line = (label: string, values: number[]) =>
  console.log(`    ${label.padEnd(64)} median ${median(values).toFixed(0).padStart(4)} ms  (${spread(values)})`);

const STEPS: [string, (t: Timeline) => number][] = [
  ['HTML answered', (t) => t.htmlEnd],
  ['script and styles answered', (t) => t.assetsEnd],
  ['the three list requests sent', (t) => t.listsStart],
  ['POST /session sent', (t) => t.sessionStart],
  ['POST /session answered (signed in)', (t) => t.sessionEnd],
  ['the three list requests answered', (t) => t.listsEnd],
  ['host and project lists in the DOM', (t) => t.listsAt],
  ['sign-in navigation → host and project lists painted', (t) => t.paintedAt],
];

/** One code's figures: its timelines step by step, the goal's "after sign-in" figure, the traced breakdown. */
export function printCode(code: CodeRuns): void {
  console.log(`  ${code.label}`);
  line('server: /hosts + /projects + /threads answered, from Node', code.server);
  line(
    'no token → the sign-in form painted (the page’s own load)',
    code.form.map((t) => t.paintedAt),
  );
  for (const [kind, runs] of [
    ['cold (new profile, nothing cached)', code.cold],
    ['warm (files cached, cookie cleared)', code.warm],
  ] as const) {
    console.log(`   ${kind}:`);
    for (const [label, of] of STEPS) line(label, runs.map(of));
    line(
      'GOAL: lists painted after POST /session answered (≤ 300 ms)',
      runs.map((t) => t.paintedAt - t.sessionEnd),
    );
  }
  if (!code.traces.length) return;
  const kinds = [...new Set(code.traces.flatMap((trace) => Object.keys(trace)))].sort(
    (a, b) => median(code.traces.map((t) => t[b] ?? 0)) - median(code.traces.map((t) => t[a] ?? 0)),
  );
  console.log(`   cold, main thread from navigation to the lists painted (${code.traces.length} traced runs, self time):`);
  for (const kind of kinds)
    line(
      kind,
      code.traces.map((trace) => trace[kind] ?? 0),
    );
}
