import type { Page } from 'playwright-core';

/** Main-thread time of one page load, by kind of work, in ms from navigation start to the probe's paint mark. */
export type TraceBreakdown = Record<string, number>;

/** Trace event names → the kind of work the breakdown reports them as (self time: children are subtracted). */
const KINDS: Record<string, string> = {
  ParseHTML: 'HTML parse',
  ParseAuthorStyleSheet: 'CSS parse',
  'v8.compile': 'script compile',
  'v8.compileModule': 'script compile',
  'V8.CompileCode': 'script compile',
  'v8.produceModuleCache': 'script compile',
  'v8.produceCache': 'script compile',
  'V8.CompileLazy': 'script compile',
  'v8.parseOnBackground': 'script compile',
  EvaluateScript: 'script run',
  'v8.evaluateModule': 'script run',
  FunctionCall: 'script run',
  TimerFire: 'script run',
  FireAnimationFrame: 'script run',
  EventDispatch: 'script run',
  RunMicrotasks: 'script run',
  'v8.run': 'script run',
  UpdateLayoutTree: 'style',
  RecalculateStyles: 'style',
  Layout: 'layout',
  PrePaint: 'paint',
  Paint: 'paint',
  Layerize: 'paint',
  Commit: 'paint',
  MinorGC: 'GC',
  MajorGC: 'GC',
  'V8.GC_SCAVENGER': 'GC',
  'BlinkGC.AtomicPhase': 'GC',
  ResourceReceivedData: 'network (main thread)',
};

const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8',
  'v8.execute',
  'blink.user_timing',
  'loading',
  'toplevel',
].join(',');

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { frame?: string } };
}

/** Starts Chromium's trace of `page` (call before `page.goto`); the returned function ends it and sums it up. */
export async function traceLoad(page: Page): Promise<(endMark: string) => Promise<TraceBreakdown>> {
  const cdp = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...(value as unknown as TraceEvent[])));
  await cdp.send('Tracing.start', { categories: CATEGORIES, transferMode: 'ReportEvents' });
  return async (endMark) => {
    const done = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
    await cdp.send('Tracing.end');
    await done;
    await cdp.detach();
    return breakdownOf(events, endMark);
  };
}

/** Self time per kind on the renderer's main thread between `navigationStart` and the mark `endMark`. */
export function breakdownOf(events: TraceEvent[], endMark: string): TraceBreakdown {
  const main = events.find(
    (event) => event.name === 'thread_name' && event.args?.name === 'CrRendererMain' && hasNavigation(events, event),
  );
  const navigation = events.find((event) => event.name === 'navigationStart' && (!main || event.tid === main.tid));
  const end = events.filter((event) => event.name === endMark).at(-1);
  if (!main || !navigation || !end) return {};
  const from = navigation.ts;
  const to = end.ts;
  const complete = events
    .filter((event) => event.pid === main.pid && event.tid === main.tid && event.ph === 'X' && event.dur !== undefined)
    .filter((event) => event.ts < to && event.ts + event.dur! > from)
    .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const totals: TraceBreakdown = {};
  const stack: { event: TraceEvent; children: number }[] = [];
  const close = (until: number) => {
    while (stack.length && stack.at(-1)!.event.ts + stack.at(-1)!.event.dur! <= until) {
      const { event, children } = stack.pop()!;
      const kind = KINDS[event.name] ?? (process.env.TRACE_NAMES ? `other: ${event.name}` : 'other');
      totals[kind] = (totals[kind] ?? 0) + Math.max(0, event.dur! - children) / 1000;
      if (stack.length) stack.at(-1)!.children += event.dur!;
    }
  };
  for (const event of complete) {
    close(event.ts);
    stack.push({ event, children: 0 });
  }
  close(Infinity);
  totals['main thread busy'] = complete
    .filter((event) => event.name === 'RunTask')
    .reduce((sum, event) => sum + (Math.min(to, event.ts + event.dur!) - Math.max(from, event.ts)) / 1000, 0);
  return totals;
}

function hasNavigation(events: TraceEvent[], thread: TraceEvent): boolean {
  return events.some((event) => event.name === 'navigationStart' && event.pid === thread.pid && event.tid === thread.tid);
}
