/**
 * `npm run -s bench:watchers`: the three ways to watch a tree that issue 16 names, each in a child process of
 * its own on the 135k-entry benchmark tree: time until watching, CPU and memory to get there, CPU to take a
 * burst of changes, and how many changed paths never got an event (event loss). `@parcel/watcher` is a
 * dependency; chokidar is not (the comparison chose against it), so install it for this run only:
 * `npm install --no-save chokidar@4`. Prints a report; exits 0 whatever the numbers.
 */
import { fork } from 'node:child_process';
import { mkdirSync, mkdtempSync, renameSync, rmSync, unlinkSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { buildPathsBenchTree } from './lib/pathsBenchTree';

const KINDS = ['none', 'parcel', 'chokidar', 'fs.watch recursive'] as const;
type Kind = (typeof KINDS)[number];
/** Longest wait for a watcher to start, and for the events of a burst. */
const READY_DEADLINE_MS = 180_000;
const SETTLE_MS = 3_000;

interface ChildReport {
  kind: Kind;
  error?: string;
  readyMs?: number;
  readyCpuMs?: number;
  rssMb?: number;
  /** inotify watches this process holds once watching (Linux). */
  inotifyWatches?: number;
  batches?: number;
  largestBatch?: number;
  burstCpuMs?: number;
  changed?: number;
  missed?: number;
  missedExamples?: string[];
  /** Of the missed: files written right after their new folder's mkdir. */
  missedInNewFolders?: number;
}

async function main(): Promise<void> {
  if (process.argv[2] === '--child') return child(process.argv[3] as Kind, process.argv[4]!);
  const root = mkdtempSync(join(tmpdir(), 'bench-watchers-'));
  try {
    const tree = buildPathsBenchTree(root);
    console.log(`tree: ${tree.files} files + ${tree.directories} directories (+${tree.excluded} in .git/node_modules)`);
    // `WATCHERS=parcel,none` runs only those.
    const only = process.env.WATCHERS?.split(',');
    for (const kind of KINDS.filter((candidate) => only === undefined || only.includes(candidate))) {
      const report = await new Promise<ChildReport>((resolve) => {
        const worker = fork(__filename, ['--child', kind, root], { execArgv: process.execArgv });
        worker.once('message', (message) => resolve(message as ChildReport));
        worker.once('exit', (code) => resolve({ kind, error: `exited with code ${code}` }));
      });
      console.log(describe(report));
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

function describe(report: ChildReport): string {
  if (report.error !== undefined) return `${report.kind}: failed: ${report.error}`;
  return (
    `${report.kind}: watching after ${report.readyMs!.toFixed(0)} ms (CPU ${report.readyCpuMs!.toFixed(0)} ms), ` +
    `RSS +${report.rssMb!.toFixed(0)} MB, ${report.inotifyWatches} inotify watches; burst of ${report.changed} changed paths: CPU ${report.burstCpuMs!.toFixed(0)} ms, ` +
    `${report.batches ? `${report.batches} batches (largest ${report.largestBatch} events), ` : ''}missed ${report.missed}, of which ${report.missedInNewFolders} written right after their new folder's mkdir` +
    `${report.missedExamples!.length > 0 ? `; others e.g. ${report.missedExamples!.join(', ')}` : ''}`
  );
}

type Stop = () => Promise<void>;

/** Starts watching `root`, calling `onPath` with absolute paths; resolves once the watch covers the tree. */
const batchSizes: number[] = [];

async function startWatching(kind: Kind, root: string, onPath: (path: string) => void): Promise<Stop> {
  if (kind === 'none') return async () => undefined;
  if (kind === 'parcel') {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const watcher: typeof import('@parcel/watcher') = require('@parcel/watcher');
    // As shipped (`parcelTreeWatcher.ts`): the `.git` and `node_modules` folders by path. `PARCEL_IGNORE='["**/.git",
    // "**/node_modules/*"]'` tries globs instead.
    const ignore = process.env.PARCEL_IGNORE ? (JSON.parse(process.env.PARCEL_IGNORE) as string[]) : excludedFolders(root);
    const subscription = await watcher.subscribe(
      root,
      (error, events) => {
        if (error) throw error;
        batchSizes.push(events.length);
        for (const event of events) onPath(event.path);
      },
      { ignore },
    );
    return () => subscription.unsubscribe();
  }
  if (kind === 'chokidar') {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const chokidar = require('chokidar') as { watch(root: string, options: object): NodeJS.EventEmitter & { close(): Promise<void> } };
    const watcher = chokidar.watch(root, { ignoreInitial: true, ignored: (path: string) => /\/(\.git|node_modules)(\/|$)/.test(path) });
    await new Promise((resolve) => watcher.once('ready', resolve));
    watcher.on('all', (_event: string, path: string) => onPath(path));
    return () => watcher.close();
  }
  // Node 20 on Linux: a JS walk that adds one non-recursive watch per directory; it says nothing when done,
  // so a probe file in the deepest directory is written until its event arrives.
  const watcher = watch(root, { recursive: true }, (_event, name) => name !== null && onPath(join(root, name)));
  const probeDirectory = deepestDirectory(root);
  const probe = join(probeDirectory, 'watch-probe');
  let seen = false;
  const seenProbe = (path: string) => (seen ||= path === probe);
  const original = onPath;
  onPath = (path) => {
    seenProbe(path);
    original(path);
  };
  const started = Date.now();
  for (let i = 0; !seen && Date.now() - started < READY_DEADLINE_MS; i += 1) {
    writeFileSync(probe, String(i));
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  unlinkSync(probe);
  if (!seen) throw new Error('no event from the deepest directory');
  return async () => watcher.close();
}

function excludedFolders(root: string): string[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { readdirSync } = require('node:fs') as typeof import('node:fs');
  const found: string[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const directory = stack.pop()!;
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      if (entry.name === '.git' || entry.name === 'node_modules') found.push(join(directory, entry.name));
      else stack.push(join(directory, entry.name));
    }
  }
  return found;
}

function deepestDirectory(root: string): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { readdirSync } = require('node:fs') as typeof import('node:fs');
  let deepest = root;
  let depth = 0;
  const stack: Array<[string, number]> = [[root, 0]];
  while (stack.length > 0) {
    const [directory, level] = stack.pop()!;
    if (level > depth) [deepest, depth] = [directory, level];
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      if (entry.isDirectory() && entry.name !== '.git' && entry.name !== 'node_modules')
        stack.push([join(directory, entry.name), level + 1]);
    }
  }
  return deepest;
}

async function child(kind: Kind, root: string): Promise<void> {
  const report: ChildReport = { kind };
  try {
    const seen = new Set<string>();
    const rssBefore = process.memoryUsage().rss;
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const stop = await startWatching(kind, root, (path) => seen.add(path));
    report.readyMs = performance.now() - started;
    report.readyCpuMs = cpuMs(process.cpuUsage(cpuBefore));
    global.gc?.();
    report.rssMb = (process.memoryUsage().rss - rssBefore) / 2 ** 20;
    report.inotifyWatches = countInotifyWatches();
    seen.clear();
    batchSizes.length = 0;
    const apply = planBurst(root, KINDS.indexOf(kind));
    const burstCpu = process.cpuUsage();
    const changed = apply();
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    report.burstCpuMs = cpuMs(process.cpuUsage(burstCpu));
    const missed = changed.filter((path) => !seen.has(path));
    report.changed = changed.length;
    report.batches = batchSizes.length;
    report.largestBatch = Math.max(0, ...batchSizes);
    report.missed = missed.length;
    const inNewFolders = (path: string) => /\/burst-dir-[^/]+\/inner-/.test(path);
    report.missedInNewFolders = missed.filter(inNewFolders).length;
    report.missedExamples = missed
      .filter((path) => !inNewFolders(path))
      .slice(0, 3)
      .map((path) => path.slice(root.length + 1));
    await stop();
  } catch (error) {
    report.error = error instanceof Error ? error.message : String(error);
  }
  process.send!(report, () => process.exit(0));
}

function countInotifyWatches(): number {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { readdirSync, readFileSync } = require('node:fs') as typeof import('node:fs');
  let watches = 0;
  for (const fd of readdirSync('/proc/self/fdinfo')) {
    try {
      watches += readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8')
        .split('\n')
        .filter((line) => line.startsWith('inotify wd:')).length;
    } catch {
      // closed meanwhile
    }
  }
  return watches;
}

const cpuMs = (usage: NodeJS.CpuUsage): number => (usage.user + usage.system) / 1000;

/**
 * What a checkout or a build does to a tree, at once: files created in many folders, new folders with files
 * written right after the mkdir (the race that per-folder watchers lose), renames and deletes. Returns every
 * path whose event a watcher should report.
 */
function planBurst(root: string, salt: number): () => string[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { readdirSync } = require('node:fs') as typeof import('node:fs');
  const directories: string[] = [];
  const files: string[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const directory = stack.pop()!;
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      if (entry.name === '.git' || entry.name === 'node_modules') continue;
      const path = join(directory, entry.name);
      if (entry.isDirectory()) {
        directories.push(path);
        stack.push(path);
      } else if (entry.isFile()) files.push(path);
    }
  }
  const pick = <T>(list: T[], count: number, offset: number): T[] =>
    Array.from({ length: count }, (_, i) => list[(i * 7919 + offset + salt * 104_729) % list.length]!);
  const parents = new Set(directories.map((directory) => dirname(directory)));
  const leaves = directories.filter((directory) => !parents.has(directory));
  return () => applyBurst(salt, pick(directories, 2_000, 1), pick(directories, 100, 2), pick(files, 600, 3), pick(leaves, 20, 4));
}

function applyBurst(salt: number, createIn: string[], mkdirIn: string[], fileChanges: string[], leafRenames: string[]): string[] {
  const changed: string[] = [];
  for (const [i, directory] of createIn.entries()) {
    const path = join(directory, `burst-created-${salt}-${i}.ts`);
    writeFileSync(path, '');
    changed.push(path);
  }
  for (const [i, directory] of mkdirIn.entries()) {
    const fresh = join(directory, `burst-dir-${salt}-${i}`);
    mkdirSync(fresh);
    changed.push(fresh);
    for (let j = 0; j < 5; j += 1) {
      writeFileSync(join(fresh, `inner-${j}.ts`), '');
      changed.push(join(fresh, `inner-${j}.ts`));
    }
  }
  const taken = new Set<string>();
  for (const [i, file] of fileChanges.entries()) {
    if (taken.has(file)) continue;
    taken.add(file);
    if (i % 2 === 0) {
      unlinkSync(file);
      changed.push(file);
    } else {
      renameSync(file, `${file}.renamed`);
      changed.push(file, `${file}.renamed`);
    }
  }
  // Leaf folders only, so no rename moves a path the other changes named.
  for (const [i, directory] of leafRenames.entries()) {
    if (taken.has(directory) || changed.some((path) => path.startsWith(`${directory}/`))) continue;
    taken.add(directory);
    renameSync(directory, `${directory}-moved-${i}`);
    changed.push(directory, `${directory}-moved-${i}`);
  }
  return changed;
}

void main();
