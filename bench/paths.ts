/**
 * `npm run bench:paths`: path listing speed against baselines measured in the same run (issues 3 and 16).
 * Targets: first call ≤ 1.0× the baseline walk (`fd -H -I`); a quick-open keystroke over HTTP with the live
 * index p50 ≤ 15 ms, p99 ≤ 40 ms, answers identical to a fresh walk; a change shows within 500 ms; scoring
 * 100k names p50 ≤ 10 ms, worst ≤ 30 ms. Prints a report; exits 0 whatever the numbers (it is a measurement).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom, of } from 'rxjs';
import { createPathLister } from '../src/daemon/pathLister';
import { WATCH_AFTER_PAUSE_MS } from '../src/paths/cache/startOncePaused';
import { rankByQuery } from '../src/paths/rank/rankByQuery';
import { truncateTo } from '../src/paths/rank/truncateTo';
import { walk$ } from '../src/paths/walk/walk';
import type { WalkEntry } from '../src/paths/walk/walkEntry';
import { buildPathsBenchTree } from './lib/pathsBenchTree';
import { coldKeystrokes } from './lib/pathsColdRound';
import { collectGarbage } from './lib/collectGarbage';
import { treeChanges } from './lib/pathsChanges';
import { pickBaselineTool, timeBaselineWalk } from './lib/pathsBaseline';
import { measureFuzzySearch } from './lib/pathsFuzzySearch';
import { startFreshWalker } from './lib/pathsFreshWalker';
import { startPathsServer, type PathsServer } from './lib/pathsHttp';
import { median, ms, percentile, timeIt } from './lib/pathsStats';

const RUNS = 5;
/** First calls alternate with baseline walks: the machine is shared, and a round's pair ran seconds apart. */
const FIRST_CALL_ROUNDS = 9;
const KEYSTROKE_QUERY = 'configts';
const KEYSTROKE_ROUNDS = 3;
const SCORING_NAMES = 100_000;
// Path queries included: short ones that most paths match (`s/`, `a/b`) are the slowest to score.
const SCORING_QUERIES = [
  'c',
  'e',
  'co',
  'ind',
  'index',
  'index.ts',
  'config',
  'configts',
  'parser',
  'readme',
  'tsconfig.json',
  'src/index',
  'test/fixtures',
  'usefilenaming',
  'xyzzy',
  'snap',
  's/',
  'a/b',
];

async function main(): Promise<void> {
  // `--cold-only`: issue 26's round alone (four trees, one service; a few minutes on a loaded 2-core machine).
  if (process.argv.includes('--cold-only')) {
    await coldKeystrokes();
    return;
  }
  // `--keystrokes-only`: the live-index keystrokes and the freshness of the 8 changes alone, on a tree of its own.
  const keystrokesOnly = process.argv.includes('--keystrokes-only');
  const root = mkdtempSync(join(tmpdir(), 'bench-paths-'));
  try {
    const built = await timeIt(() => buildPathsBenchTree(root));
    const tree = built.value;
    console.log(
      `tree: ${tree.source} names, ${tree.files} files + ${tree.directories} directories listed, ` +
        `${tree.excluded} excluded .git/node_modules entries, ${tree.ignoreFiles} .gitignore files with rules (built in ${ms(built.ms)})`,
    );
    if (keystrokesOnly) {
      await keystrokes(root);
      return;
    }

    const tool = pickBaselineTool();
    await timeBaselineWalk(tool, root); // warm the page cache for everyone
    await timeFirstCall(root, undefined); // and start the reading threads, as a running daemon has them
    const rounds = { baseline: [] as number[], first: [] as number[], queried: [] as number[] };
    for (let round = 0; round < FIRST_CALL_ROUNDS; round += 1) {
      rounds.baseline.push(await timeBaselineWalk(tool, root));
      rounds.first.push(await timeFirstCall(root, undefined));
      rounds.queried.push(await timeFirstCall(root, KEYSTROKE_QUERY.slice(0, 1)));
    }
    const baseline = median(rounds.baseline);
    console.log(`baseline: \`${tool.label}\` walk p50 ${ms(baseline)} (rounds ${spreadOf(rounds.baseline, (x) => ms(x))})`);
    const perRound = (side: number[]) => side.map((time, round) => time / rounds.baseline[round]!);
    for (const [label, side, target] of [
      ['first call, no query (walk + rank + truncate 100)', rounds.first, ' (target ≤ 1.00×)'],
      [`first call, query "${KEYSTROKE_QUERY[0]}"`, rounds.queried, ''],
    ] as const) {
      console.log(
        `${label}: p50 ${ms(median(side))}; ratio to the baseline of the same round: median ` +
          `${median(perRound(side)).toFixed(2)}× (rounds ${spreadOf(perRound(side), (x) => `${x.toFixed(2)}×`)})${target}`,
      );
    }

    await keystrokes(root);
    await scoring(root);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  // Last, with its own four trees, after the main tree is gone: four trees in one service is what it measures.
  collectGarbage();
  await coldKeystrokes();
}

/**
 * One new lister's first call; its background stamping is awaited outside the timing. No watch: one starts
 * only after the first answer, and here each round's would go on crawling the tree during the next rounds.
 */
async function timeFirstCall(root: string, query: string | undefined): Promise<number> {
  const lister = createPathLister({ watcher: null });
  try {
    const { ms: took } = await timeIt(() => lister.listPaths({ path: root, query, limit: 100 }));
    await lister.listPaths({ path: root, limit: 1 });
    return took;
  } finally {
    // Closed, or its tree (135k entries) stays in this heap until the idle timer ends: 27 such trees took the
    // heap to 1 GB, and marking it slowed the keystrokes measured after.
    await lister.close();
  }
}

/** Keystroke rounds over HTTP with the live index (each is the 8 prefixes of the query, as typed). */
const WATCHED_ROUNDS = 12;
/** The same over a server that revalidates by stamps (the landed design), the slower baseline. */
const STAMPED_ROUNDS = 3;
/** Longest wait for the watch to cover the tree, and for a change to show. */
const WATCH_DEADLINE_MS = 120_000;
const FRESHNESS_DEADLINE_MS = 30_000;

/**
 * Quick-open over HTTP as a browser asks for it: `GET /projects/:id/paths?query=…` of a server whose embedded
 * daemon lists the tree, with the live index (watched) and, in the same run, with stamps only and the ranking
 * alone (the floor: what a keystroke costs without HTTP, the link, or any revalidation). Then the 8 changes:
 * how long each takes to show (freshness), and whether the answers are then identical to a fresh walk.
 */
async function keystrokes(root: string): Promise<void> {
  const prefixes = Array.from({ length: KEYSTROKE_QUERY.length }, (_, i) => KEYSTROKE_QUERY.slice(0, i + 1));
  // One server at a time: two trees of 135k entries in one heap make the collector's pauses longer for both.
  const stamped = await startPathsServer(root, 0);
  let stampedTimes: number[];
  try {
    await stamped.paths({});
    await stamped.paths({}); // settles the stamps of directories written during the build
    stampedTimes = await timeKeystrokes(stamped, prefixes, STAMPED_ROUNDS);
  } finally {
    await stamped.close();
  }
  // The stamped server's tree and the garbage of its calls (~270 MB) are collected now, not while the watched
  // server's keystrokes are timed: a running server carries no second server's leftovers.
  collectGarbage();
  const watched = await startPathsServer(root, 10 * 60_000);
  try {
    const watchedAfter = await timeIt(async () => {
      await watched.paths({});
      const started = performance.now();
      while (!watched.log.some((line) => line.endsWith(' answered from the watched listing'))) {
        if (performance.now() - started > WATCH_DEADLINE_MS)
          throw new Error(`not watched after ${WATCH_DEADLINE_MS} ms: ${watched.log.join('; ')}`);
        // Longer than `WATCH_AFTER_PAUSE_MS`: a root's watch starts once calls on it pause, as a person's do.
        await new Promise((resolve) => setTimeout(resolve, WATCH_AFTER_PAUSE_MS + 50));
        await watched.paths({ limit: '1' });
      }
    });
    const logBefore = watched.log.length;
    const watchedTimes = await timeKeystrokes(watched, prefixes, WATCHED_ROUNDS);
    const byStamps = watched.log.slice(logBefore).filter((entry) => entry.endsWith(' answered by revalidating stamps')).length;

    const listing = await lastValueFrom(walk$(root));
    const rank = (query: string) => lastValueFrom(of(listing).pipe(rankByQuery(query), truncateTo(100)));
    await rank('a'); // folds and packs the names, as the live index has them before the first keystroke
    const scorerTimes: number[] = [];
    for (let round = 0; round < WATCHED_ROUNDS; round += 1) {
      for (const query of prefixes) scorerTimes.push((await timeIt(() => rank(query))).ms);
    }
    const line = (times: number[]) => `p50 ${ms(median(times))}, p99 ${ms(percentile(times, 99))} (min–max ${spreadOf(times, ms)})`;
    console.log(`keystrokes over HTTP "${prefixes.join('", "')}" (${listing.entries.length} entries, limit 100):`);
    console.log(
      `  live index (watched): ${line(watchedTimes)}, ${watchedTimes.length} calls (targets p50 ≤ 15 ms, p99 ≤ 40 ms); ` +
        `the watch covered the tree ${ms(watchedAfter.ms)} after the first call`,
    );
    console.log(`  slowest watched calls: ${slowest(watchedTimes, prefixes)}; calls answered by stamps meanwhile: ${byStamps}`);
    const notes = watched.log.filter((entry) => !/ answered (from the watched listing|by revalidating stamps)$/.test(entry));
    console.log(`  the watch said: ${notes.map((entry) => entry.replace(root, 'ROOT')).join(' | ')}`);
    console.log(`  stamps (every directory lstat'ed per call, before issue 16): ${line(stampedTimes)}, ${stampedTimes.length} calls`);
    console.log(
      `  ranking alone, in process (same listing and queries): ${line(scorerTimes)}; ` +
        `live index p50 = ${(median(watchedTimes) / median(scorerTimes)).toFixed(2)}× the ranking`,
    );

    await changesAgainstFreshWalks(root, watched);
  } finally {
    await watched.close();
  }
}

/** The three slowest calls as `query (round) time`, to tell a slow query from a slow moment. */
function slowest(times: number[], prefixes: string[]): string {
  return times
    .map((time, index) => [time, index] as const)
    .sort((a, b) => b[0] - a[0])
    .slice(0, 3)
    .map(([time, index]) => `"${prefixes[index % prefixes.length]}" (round ${Math.floor(index / prefixes.length) + 1}) ${ms(time)}`)
    .join(', ');
}

async function timeKeystrokes(server: PathsServer, prefixes: string[], rounds: number): Promise<number[]> {
  const times: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    for (const query of prefixes) times.push((await timeIt(() => server.paths({ query }))).ms);
  }
  return times;
}

/**
 * Each of the 8 changes, then: the watched server is asked every few ms while a fresh walk of the changed tree
 * runs; the lag is when its answers started matching that walk (they then stay matching). Then both requests
 * are compared with a fresh walk once more.
 */
async function changesAgainstFreshWalks(root: string, watched: PathsServer): Promise<void> {
  const fresh = createPathLister({ cache: false });
  const elsewhere = startFreshWalker();
  await elsewhere.listPaths(root, KEYSTROKE_QUERY, 10_000); // started and warm before the first change
  const changes = treeChanges(root);
  const differing: string[] = [];
  const lags: Array<[string, number]> = [];
  const probe = { query: KEYSTROKE_QUERY, limit: '10000' };
  for (const [what, change] of changes) {
    const changedAt = performance.now();
    change();
    // The fresh walk runs in a process of its own, so it does not hold up the server's event loop.
    const expectedPromise = elsewhere.listPaths(root, KEYSTROKE_QUERY, 10_000);
    let expected: string | null = null;
    void expectedPromise.then((answer) => (expected = answer));
    const polled: Array<[number, string]> = [];
    while (performance.now() - changedAt < FRESHNESS_DEADLINE_MS) {
      polled.push([performance.now() - changedAt, JSON.stringify(await watched.paths(probe))]);
      if (expected !== null && polled[polled.length - 1]![1] === expected) break;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    const firstMatching = polled.findIndex((_, index) => polled.slice(index).every(([, answer]) => answer === expected));
    lags.push([what, firstMatching < 0 ? Number.POSITIVE_INFINITY : polled[firstMatching]![0]]);
    for (const request of [{ query: KEYSTROKE_QUERY }, { query: 'c', limit: 10_000 }]) {
      const [a, b] = await Promise.all([
        watched.paths(Object.fromEntries(Object.entries(request).map(([key, value]) => [key, String(value)]))),
        fresh.listPaths({ path: root, ...request }),
      ]);
      if (JSON.stringify(a) !== JSON.stringify(b)) differing.push(`${what} (${JSON.stringify(request)})`);
    }
  }
  elsewhere.close();
  const lagTimes = lags.map(([, lag]) => lag);
  console.log(
    `freshness (change made → first HTTP answer equal to a fresh walk in another process, polled every ~2 ms plus a call; the lag counts from the change, whenever that walk ends): ` +
      `median ${ms(median(lagTimes))}, max ${ms(Math.max(...lagTimes))} (target ≤ 500 ms); ` +
      lags.map(([what, lag]) => `${what} ${lag.toFixed(0)}`).join(', '),
  );
  console.log(
    `after each of ${changes.length} changes (${changes.map(([what]) => what).join(', ')}): live-index answers ` +
      `identical to a fresh walk: ${differing.length === 0 ? 'yes' : `NO: ${differing.join('; ')}`}`,
  );
}

/**
 * Ranking alone (score every name, keep 100 with positions) over the first 100k entries of a fresh walk,
 * after a first pass that folds and packs the names (a cached listing does that before the first keystroke)
 * and a few path queries that warm their scorer.
 */
async function scoring(root: string): Promise<void> {
  const listing = await lastValueFrom(walk$(root));
  const entries: WalkEntry[] = listing.entries.slice(0, SCORING_NAMES);
  const subset = { root, entries };
  const rank = (query: string) => lastValueFrom(of(subset).pipe(rankByQuery(query), truncateTo(100)));
  const folding = await timeIt(() => rank('a'));
  // Warm the path-query scorer too, as a running daemon has it after its first path query: otherwise the
  // first path query timed pays for its JIT (its first runs measured 45–65 ms, then 8–20 ms).
  for (let i = 0; i < 3; i += 1) await rank('x/');
  const timeQueries = async (queries: string[]) => {
    const perQuery: Array<[string, number]> = [];
    for (const query of queries) perQuery.push([query, median(await repeat(RUNS, async () => (await timeIt(() => rank(query))).ms))]);
    return perQuery;
  };
  const perQuery = await timeQueries(SCORING_QUERIES);
  const times = perQuery.map(([, time]) => time);
  const [worstQuery, worst] = perQuery.reduce((a, b) => (b[1] > a[1] ? b : a));
  console.log(
    `scoring ${entries.length} names (${SCORING_QUERIES.length} queries, median of ${RUNS} each): p50 ${ms(median(times))}, ` +
      `worst ${ms(worst)} ("${worstQuery}") (targets ≤ 10 ms / ≤ 30 ms); first pass incl. folding and packing every name ${ms(folding.ms)}`,
  );
  console.log(`  per query: ${perQuery.map(([query, time]) => `${query} ${time.toFixed(1)}`).join(', ')}`);

  const fuzzySearch = await measureFuzzySearch(entries, SCORING_QUERIES, RUNS);
  console.log(
    `fuzzy-search 3.x (sort: true) on the same names and queries: p50 ${ms(fuzzySearch.medianMs)}, worst ` +
      `${ms(fuzzySearch.worstMs)} ("${fuzzySearch.worstQuery}"); a result holds only ${JSON.stringify(fuzzySearch.resultKeys)} ` +
      `(no score, no positions); isMatch for "index": index.ts ${fuzzySearch.indexScore}, reindex.ts ${fuzzySearch.reindexScore} ` +
      `(a tie), so search("index") over [reindex.ts, index.ts] returns ${JSON.stringify(fuzzySearch.orderForIndex)}`,
  );
}

async function repeat(times: number, run: () => Promise<number>): Promise<number[]> {
  const results: number[] = [];
  for (let i = 0; i < times; i += 1) results.push(await run());
  return results;
}

function spreadOf(values: number[], format: (value: number) => string): string {
  return `${format(Math.min(...values))}–${format(Math.max(...values))}`;
}

void main();
