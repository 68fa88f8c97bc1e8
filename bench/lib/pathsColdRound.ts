import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildPathsBenchTree } from './pathsBenchTree';
import type { PathsProject } from './pathsHttp';
import { startPathsService, type PathsService } from './pathsService';
import { median, ms, percentile, timeIt } from './pathsStats';
import { sampleThreadTimes, threadTimesBetween, type ThreadTimesBetween } from './threadTimes';

/** 40 keystrokes: each word typed letter by letter into a fresh quick-open, as a person looks for files. */
export const COLD_WORDS = ['configts', 'index', 'readme', 'parser', 'utils', 'server', 'test'];
/** Typing the same words again: twice, so ~80 calls show whether pauses still come every ~75 keystrokes. */
const AGAIN_ROUNDS = 2;
/** The other roots registered (and listed once) in the same minute, each a tree of the same size. */
const OTHER_ROOTS = 3;

export interface ColdRoundResult {
  first: number[];
  again: number[];
}

/**
 * Issue 26's cold keystrokes: one service (started as `npm start` starts it, in its own process: `pathsService.ts`;
 * `BENCH_SERVICE_DIR=<checkout>` measures another checkout's code with this same bench), three other roots of the bench tree's size registered and listed
 * once, then a fourth root's first listing and at once the 40 keystrokes of `COLD_WORDS`, over HTTP; then the
 * same words again. Says for each slow call what it overlapped: the service's collector pauses, and what the
 * path lister logged meanwhile (a revalidation by stamps, a watch starting, a name index built).
 */
export async function coldKeystrokes(): Promise<ColdRoundResult> {
  // `BENCH_PATHS_COLD_TREES=<dir>`: the four trees are built there once and kept, so runs of old and new code
  // can alternate within minutes on a loaded machine (building them takes most of a run).
  const kept = process.env.BENCH_PATHS_COLD_TREES;
  const roots = Array.from({ length: OTHER_ROOTS + 1 }, (_, i) =>
    kept === undefined ? mkdtempSync(join(tmpdir(), 'bench-paths-cold-')) : join(kept, `root-${i}`),
  );
  const serviceDir = resolve(process.env.BENCH_SERVICE_DIR ?? join(__dirname, '../..'));
  execFileSync(process.execPath, [join(serviceDir, 'src/build/ensureBuilt.mjs')], { cwd: serviceDir, stdio: 'inherit' });
  let server: PathsService | null = null;
  try {
    const built = await timeIt(() =>
      roots.map((root) => {
        const done = `${root}.built.json`;
        if (kept !== undefined && existsSync(done)) return JSON.parse(readFileSync(done, 'utf8')) as { files: number; directories: number };
        if (kept !== undefined) mkdirSync(root, { recursive: true });
        const { files, directories } = buildPathsBenchTree(root);
        if (kept !== undefined) writeFileSync(done, JSON.stringify({ files, directories }));
        return { files, directories };
      }),
    );
    const typedRoot = roots[OTHER_ROOTS]!;
    console.log(
      `cold keystrokes (issue 26): ${roots.length} roots of ${built.value[0]!.files + built.value[0]!.directories} entries ` +
        `built in ${ms(built.ms)}; ${OTHER_ROOTS} listed once, then the 4th listed and typed into at once`,
    );
    server = await startPathsService(roots[0]!, 10 * 60_000, serviceDir);
    const pid = server.pid;
    const gcPauses = server.gcPauses;
    const extra = process.env.BENCH_SERVICE_NODE_OPTIONS;
    console.log(`  service: \`${server.command}\` in ${serviceDir} (pid ${pid})${extra ? `, NODE_OPTIONS ${extra}` : ''}`);
    const started = performance.now();
    const others: PathsProject[] = [server];
    for (const root of roots.slice(1, OTHER_ROOTS)) others.push(await server.project(root));
    for (const other of others) await other.paths({});
    const typed = await server.project(typedRoot);
    const firstListing = await timeIt(() => typed.paths({}));
    const prefixes = COLD_WORDS.flatMap((word) => Array.from({ length: word.length }, (_, i) => word.slice(0, i + 1)));
    type Call = { query: string; at: number; ms: number; threads: ThreadTimesBetween };
    const timed = async (): Promise<Call[]> => {
      const calls: Call[] = [];
      for (const query of prefixes) {
        // Sampled outside the timed span (reading ~15 small /proc files costs ~0.5 ms).
        const before = sampleThreadTimes(pid);
        const at = performance.now();
        const took = (await timeIt(() => typed.paths({ query }))).ms;
        calls.push({ query, at, ms: took, threads: threadTimesBetween(before, sampleThreadTimes(pid), pid) });
      }
      return calls;
    };
    const firstCalls = await timed();
    const againCalls: Call[] = [];
    for (let round = 0; round < AGAIN_ROUNDS; round += 1) againCalls.push(...(await timed()));
    const tookAll = performance.now() - started;

    const log = server.log;
    const logAt = server.logAt;
    // What ran in the background, from the lister's debug log: each root's watch starting (its crawl on a thread
    // of its own) and each revalidation by stamps nobody waited for (asked for → ended).
    const spans: Array<{ what: string; from: number; to: number }> = [];
    const openSpan = new Map<string, number>();
    log.forEach((said, i) => {
      const rootIndex = roots.findIndex((root) => said.startsWith(`paths: ${root} `));
      const who = rootIndex === OTHER_ROOTS ? 'typed root' : `root ${rootIndex}`;
      const rest = said.replace(/^paths: \S+ /, '');
      const open = (what: string) => openSpan.set(`${who}'s ${what}`, logAt[i]!);
      const close = (what: string) => {
        const key = `${who}'s ${what}`;
        if (openSpan.has(key)) spans.push({ what: key, from: openSpan.get(key)!, to: logAt[i]! });
        openSpan.delete(key);
      };
      if (rest.startsWith('starting its watch')) open('watch start');
      else if (rest.startsWith('is watched') || rest.startsWith('cannot be watched')) close('watch start');
      else if (rest.startsWith('revalidating by stamps in the background')) open('background revalidation');
      else if (rest.startsWith('background revalidation ended')) close('background revalidation');
    });
    for (const [what, from] of openSpan) spans.push({ what, from, to: Infinity });
    const rankedMs = (call: Call): number => {
      const end = call.at + call.ms;
      const index = log.findIndex(
        (said, i) => logAt[i]! >= call.at && logAt[i]! <= end && said.startsWith(`paths: ${typedRoot} ranked in`),
      );
      return index < 0 ? Number.NaN : Number(/ranked in ([\d.]+) ms/.exec(log[index]!)![1]);
    };
    const explain = (call: Call): string => {
      const end = call.at + call.ms;
      const gc = gcPauses.filter((pause) => pause.at < end && pause.at + pause.ms > call.at);
      const gcMs = gc.reduce((sum, pause) => sum + pause.ms, 0);
      const kinds = [...new Set(gc.map((pause) => pause.kind))].join('+');
      const said = log
        .filter((_, i) => logAt[i]! >= call.at && logAt[i]! <= end)
        .map((line) => line.replace(/^paths: \S+ /, '').replace(/;.*$/, ''))
        .filter(
          (line) =>
            !/^(answered from the (watched|last) listing|ranked in|revalidating by stamps in the background|background revalidation ended)/.test(
              line,
            ),
        );
      const during = spans.filter((span) => span.from < end && span.to > call.at).map((span) => span.what);
      const { mainRunMs, mainWaitMs, othersRunMs, busiest } = call.threads;
      const parts = [
        `ranking ${ms(rankedMs(call))}`,
        `main thread ran ${ms(mainRunMs)}, waited for a core ${ms(mainWaitMs)}`,
        gcMs > 0 ? `GC ${ms(gcMs)} (${kinds})` : 'no GC',
        `other threads ran ${ms(othersRunMs)}${busiest !== null && busiest.runMs > 1 ? ` (most: thread ${busiest.tid}, ${ms(busiest.runMs)})` : ''}`,
        `during: ${during.length > 0 ? during.join(', ') : 'no background work'}`,
        ...said.map((line) => `"${line}"`),
      ];
      return `"${call.query}" ${ms(call.ms)} [${parts.join('; ')}]`;
    };
    const line = (calls: Call[]): string => {
      const times = calls.map((call) => call.ms);
      return `p50 ${ms(median(times))}, p99 ${ms(percentile(times, 99))}, worst ${ms(Math.max(...times))}`;
    };
    const slowest = (calls: Call[], count: number): string =>
      [...calls]
        .sort((a, b) => b.ms - a.ms)
        .slice(0, count)
        .map(explain)
        .join('\n      ');
    const gcIn = (from: number, to: number) => gcPauses.filter((pause) => pause.at >= from && pause.at < to);
    const majorMs = (pauses: typeof gcPauses) => pauses.filter((p) => p.kind === 'major').reduce((sum, p) => sum + p.ms, 0);
    const firstGc = gcIn(firstCalls[0]!.at, againCalls[0]!.at);
    const againGc = gcIn(againCalls[0]!.at, Infinity);
    console.log(
      `  4 roots listed and 120 keystrokes in ${ms(tookAll)}; the typed root's first listing ${ms(firstListing.ms)}; ` +
        `GC while typing the first 40: ${firstGc.length} pauses, ${ms(firstGc.reduce((sum, p) => sum + p.ms, 0))} (major ${ms(majorMs(firstGc))}, ` +
        `longest ${ms(Math.max(0, ...firstGc.map((p) => p.ms)))}); again: ${againGc.length} pauses, longest ${ms(Math.max(0, ...againGc.map((p) => p.ms)))}`,
    );
    const typingFrom = firstCalls[0]!.at;
    const watchedAt = roots.map((root) => {
      const index = log.findIndex((said) => said.startsWith(`paths: ${root} is watched`));
      return index < 0 ? 'not up' : `${((logAt[index]! - typingFrom) / 1000).toFixed(1)} s`;
    });
    console.log(`  watches up, from the first keystroke: ${watchedAt.join(', ')} (the typed root last)`);
    const packed = log
      .map((said, i) => ({ said, at: logAt[i]! }))
      .filter(({ said }) => said.startsWith(`paths: ${typedRoot} names packed`))
      .map(({ said, at }) => `${said.replace(/^.* in /, '')} ending at ${(at - typingFrom).toFixed(0)} ms`);
    console.log(`  the typed root's names packed, from the first keystroke: ${packed.join(', ') || 'never'}`);
    console.log(`  first 40 keystrokes: ${line(firstCalls)} (targets p99 ≤ 40 ms, worst ≤ 80 ms)`);
    console.log(`    slowest, with what they overlapped:\n      ${slowest(firstCalls, 5)}`);
    console.log(
      `    per keystroke, ms (ranking/main thread waiting for a core): ` +
        firstCalls
          .map((call) => `${call.query} ${call.ms.toFixed(0)} (${rankedMs(call).toFixed(0)}/${call.threads.mainWaitMs.toFixed(0)})`)
          .join(', '),
    );
    console.log(`  the same words again (${againCalls.length} calls): ${line(againCalls)} (target p99 ≤ 40 ms)`);
    console.log(`    slowest:\n      ${slowest(againCalls, 3)}`);
    const sum = (calls: Call[], of: (call: Call) => number) => calls.reduce((total, call) => total + of(call), 0);
    for (const [label, calls] of [
      ['first 40', firstCalls],
      ['again', againCalls],
    ] as const) {
      console.log(
        `  ${label}, summed over the calls: wall ${ms(sum(calls, (c) => c.ms))}, ranking ${ms(sum(calls, rankedMs))}, ` +
          `main thread ran ${ms(sum(calls, (c) => c.threads.mainRunMs))} and waited for a core ${ms(sum(calls, (c) => c.threads.mainWaitMs))}, ` +
          `other threads ran ${ms(sum(calls, (c) => c.threads.othersRunMs))}`,
      );
    }
    console.log(
      `  background work (from the first keystroke): ${spans.map((span) => `${span.what} ${((span.from - typingFrom) / 1000).toFixed(2)}–${span.to === Infinity ? 'end' : ((span.to - typingFrom) / 1000).toFixed(2)} s`).join(', ')}`,
    );
    return { first: firstCalls.map((call) => call.ms), again: againCalls.map((call) => call.ms) };
  } finally {
    await server?.close();
    if (kept === undefined) for (const root of roots) rmSync(root, { recursive: true, force: true });
  }
}
