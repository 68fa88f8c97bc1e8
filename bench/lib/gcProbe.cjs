// Loaded into a benchmarked service with `NODE_OPTIONS=--require …/gcProbe.cjs`: writes each collector pause to
// stderr as `bench-gc <kind> <start, ms since the epoch> <duration ms>`, so a bench in another process can tell
// which of its calls waited for one. It only observes; the service runs as its start command runs it.
const { PerformanceObserver, performance, constants } = require('node:perf_hooks');

const KINDS = {
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
};

new PerformanceObserver((list) => {
  let text = '';
  for (const entry of list.getEntries()) {
    const kind = KINDS[entry.detail?.kind] ?? 'weak';
    text += `bench-gc ${kind} ${(performance.timeOrigin + entry.startTime).toFixed(3)} ${entry.duration.toFixed(3)}\n`;
  }
  process.stderr.write(text);
}).observe({ entryTypes: ['gc'] });
