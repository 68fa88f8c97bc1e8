/**
 * Where bench:acp's slow tail comes from (issue 27; a diagnostic, not an npm script):
 * `npx ts-node --transpile-only bench/acpTrace.ts`. Runs bench:acp's paced part (TRACE_RUNS times) with the
 * store's journal, checkpointer and commits and the SDK tap wrapped, and prints each chunk's send → tap → SSE
 * split, GC pauses by kind, event-loop delay, the store's spans, what the chunks slower than 20 ms overlapped,
 * and the chunks sent in the 100 ms after a checkpoint against the others. TRACE_NO_DATASYNC=1 leaves the
 * journal's fdatasync out and TRACE_CHECKPOINT_MS=600000 the checkpoints, to weigh them (never the service).
 */
import path from 'node:path';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import * as journalModule from '../src/store/nedb/segments/journal';
import * as syncModule from '../src/store/nedb/segments/syncFiles';
import * as segmentModule from '../src/store/nedb/segments/threadSegment';
import * as tapModule from '../src/daemon/providers/acp/tapAcpStream';
import * as checkpointModule from '../src/store/nedb/checkpointer';
import * as commitModule from '../src/store/nedb/commitGroup';
import { createAcpProvider } from '../src/daemon/providers/acp';
import { createPiSandbox } from '../test/providers/pi/piSandbox';
import { percentile } from './lib/pathsStats';
import { startBenchServer } from './lib/acpBenchServer';
import { wallClockMs } from './lib/threadRowTimings';

const CHUNKS = Number(process.env.BENCH_ACP_CHUNKS ?? 10_000);
type Span = [kind: string, start: number, ms: number, extra?: unknown];
const spans: Span[] = [];
const timed = (kind: string, target: any, key: string) => {
  const original = target[key];
  target[key] = function (this: unknown, ...args: unknown[]) {
    const start = wallClockMs();
    const result = original.apply(this, args);
    if (result && typeof result.then === 'function')
      return result.then((value: unknown) => (spans.push([kind, start, wallClockMs() - start]), value));
    spans.push([kind, start, wallClockMs() - start]);
    return result;
  };
};
timed('journal.writeAndSync', (journalModule.Journal as any).prototype, 'writeAndSync');
timed('journal.seal', (journalModule.Journal as any).prototype, 'seal');
timed('segment.flush', segmentModule.ThreadSegment.prototype, 'flush');
timed('syncFiles', syncModule, 'syncFiles');
if (process.env.TRACE_NO_DATASYNC) {
  (journalModule.Journal as any).prototype.writeAndSync = async function (this: any, bytes: Buffer) {
    this.handle ??= (await this.takeCreated()) ?? undefined;
    await this.handle.write(bytes);
    this.bytes += bytes.length;
  };
  timed('journal.writeAndSync', (journalModule.Journal as any).prototype, 'writeAndSync');
}
if (process.env.TRACE_CHECKPOINT_MS) {
  const original = checkpointModule.startCheckpointer;
  (checkpointModule as any).startCheckpointer = (o: any) => original({ ...o, checkpointMs: Number(process.env.TRACE_CHECKPOINT_MS) });
}
const originalCommitGroup = commitModule.createCommitGroup;
(commitModule as any).createCommitGroup = (deps: any) => {
  const commit = originalCommitGroup(deps);
  return async (group: any) => {
    const start = wallClockMs();
    const committing = await commit(group);
    const cpu = wallClockMs() - start;
    void committing.outcome.then(() => spans.push(['commit', start, wallClockMs() - start, { cpu, appends: group.length }]));
    return committing;
  };
};
const tapped = new Map<string, number>();
const originalTap = tapModule.tapAcpStream;
(tapModule as any).tapAcpStream = (stream: any, observer: any) =>
  originalTap(stream, {
    ...observer,
    update(params: any) {
      const text = params?.update?.content?.text;
      if (typeof text === 'string') tapped.set(text.split('|')[0]!, wallClockMs());
      observer.update(params);
    },
  });
new PerformanceObserver((list) => {
  for (const entry of list.getEntries())
    spans.push(['gc', performance.timeOrigin + entry.startTime, entry.duration, (entry as any).detail?.kind]);
}).observe({ entryTypes: ['gc'] });
// event-loop stalls on a timeline: a 1 ms timer chain noting late wake-ups
let stallWatch = true;
let expected = 0;
const tick = () => {
  const now = wallClockMs();
  if (expected && now - expected > 4) spans.push(['loop-late', expected, now - expected]);
  expected = now + 1;
  if (stallWatch) setTimeout(tick, 1);
};

async function main(): Promise<void> {
  const sandbox = createPiSandbox({ baseUrl: 'http://127.0.0.1:9' });
  const agentScript = path.join(__dirname, 'lib', 'streamingAcpAgent.mjs');
  const acp = createAcpProvider({
    name: 'bench-acp',
    spec: { command: process.execPath, args: [agentScript], env: {} },
    log: () => undefined,
  });
  const bench = await startBenchServer([acp]);
  try {
    const thread = await bench.thread(sandbox.projectDir, 'bench-acp', 'default');
    await bench.run(thread, 'stream 200 every 0');
    const runs = Number(process.env.TRACE_RUNS ?? 1);
    for (let r = 0; r < runs; r++) {
      spans.length = 0;
      tapped.clear();
      const h = monitorEventLoopDelay({ resolution: 1 });
      h.enable();
      tick();
      const paced = await bench.run(thread, `stream ${CHUNKS} every 1`);
      h.disable();
      const chunks = paced.rows
        .filter(({ row }) => row.type === 'item/agentMessage/delta')
        .flatMap((t) =>
          String(t.row.data['delta'])
            .split('|')
            .filter(Boolean)
            .map((s) => ({ sent: Number(s), tap: tapped.get(s)!, at: t.at })),
        );
      const lat = chunks.map((c) => c.at - c.sent);
      const pre = chunks.map((c) => c.tap - c.sent);
      const post = chunks.map((c) => c.at - c.tap);
      const p = (xs: number[]) =>
        `p50 ${percentile(xs, 50).toFixed(1)} p99 ${percentile(xs, 99).toFixed(1)} max ${Math.max(...xs).toFixed(1)}`;
      console.log(`run ${r}: total ${p(lat)} | sent→tap ${p(pre)} | tap→SSE ${p(post)}`);
      console.log(
        `  loop delay (ms): p50 ${(h.percentile(50) / 1e6).toFixed(1)} p99 ${(h.percentile(99) / 1e6).toFixed(1)} max ${(h.max / 1e6).toFixed(1)}`,
      );
      const by = new Map<string, number[]>();
      for (const [k, , ms] of spans) by.set(k, [...(by.get(k) ?? []), ms]);
      for (const [k, xs] of by)
        console.log(
          `  ${k.padEnd(22)} n ${String(xs.length).padStart(5)} sum ${xs
            .reduce((a, b) => a + b, 0)
            .toFixed(0)
            .padStart(6)} ms  ${p(xs)}`,
        );
      const slow = chunks.filter((c) => c.at - c.sent > 20);
      const overlaps = (kind: string, c: { sent: number; at: number }, min = 0, before = 0) =>
        spans.some(([k, s, ms]) => k === kind && ms >= min && s <= c.at && s + ms >= c.sent - before);
      const causes = new Map<string, number>();
      for (const c of slow) {
        const tags = [
          c.tap - c.sent > 10 ? 'agent→tap>10' : '',
          overlaps('gc', c, 4) ? 'gc≥4' : '',
          overlaps('journal.seal', c, 0, 60) ? 'checkpoint' : '',
          overlaps('journal.writeAndSync', c, 10) ? 'fsync≥10' : '',
          overlaps('loop-late', c, 10) ? 'loop-late≥10' : '',
        ].filter(Boolean);
        const key = tags.join('+') || 'none';
        causes.set(key, (causes.get(key) ?? 0) + 1);
      }
      console.log(
        `  ${slow.length} chunks > 20 ms; overlapping: ${[...causes]
          .sort((a, b) => b[1] - a[1])
          .map(([k, n]) => `${k} ${n}`)
          .join(', ')}`,
      );
      const kinds = new Map<string, number[]>();
      for (const [k, , ms, x] of spans) if (k === 'gc') kinds.set(String(x), [...(kinds.get(String(x)) ?? []), ms]);
      console.log(
        `  gc by kind (1 scavenge, 2 mark-compact, 4 incremental, 8 weak): ${[...kinds].map(([k, xs]) => `${k}: n ${xs.length} max ${Math.max(...xs).toFixed(1)} sum ${xs.reduce((a, b) => a + b, 0).toFixed(0)}`).join('; ')}`,
      );
      // chunks sent in the 100 ms after a checkpoint started (the seal), against the others
      const seals = spans.filter(([k]) => k === 'journal.seal').map(([, s]) => s);
      const nearCheckpoint = (c: { sent: number }) => seals.some((s) => c.sent >= s - 5 && c.sent <= s + 100);
      const near = chunks.filter(nearCheckpoint).map((c) => c.at - c.sent);
      const far = chunks.filter((c) => !nearCheckpoint(c)).map((c) => c.at - c.sent);
      console.log(
        `  checkpoints ${seals.length}: chunks sent ≤100 ms after one (${near.length}) ${p(near)} | the others (${far.length}) ${p(far)}`,
      );
      const commits = spans.filter(([k]) => k === 'commit');
      const startingCommits = commits.filter(([, s]) => seals.some((t) => t >= s && t <= s + 5)).map(([, , ms]) => ms);
      console.log(`  commit that starts a checkpoint ${p(startingCommits)} | every commit ${p(commits.map(([, , ms]) => ms))}`);
      const mem = process.memoryUsage();
      console.log(`  heapUsed ${(mem.heapUsed / 1e6).toFixed(0)} MB, rss ${(mem.rss / 1e6).toFixed(0)} MB`);
    }
  } finally {
    stallWatch = false;
    await bench.close();
    sandbox.remove();
  }
}
main().then(
  () => process.exit(0),
  (e) => (console.error(e), process.exit(1)),
);
