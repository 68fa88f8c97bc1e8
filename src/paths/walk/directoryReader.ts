import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { DirectoryContents, DirectoryStamp } from './directoryFacts';

/** Reads and stats directories in batches, answers in the order asked. */
export interface DirectoryReader {
  /** `null` for a directory that could not be read (gone, permission). */
  read(paths: readonly string[]): Promise<Array<DirectoryContents | null>>;
  /** `lstat` of each path; `null` when it is no longer a directory or cannot be stat'ed. */
  stat(paths: readonly string[]): Promise<Array<DirectoryStamp | null>>;
  /** Batches worth keeping in flight at once so no reading thread waits for the next batch. */
  readonly parallelism: number;
}

/**
 * Reads each directory without following anything and classifies its entries; flat output
 * `[names joined by '/', kinds, gitignore, gitExclude, …]` (a name never holds '/') because one string per
 * directory crosses a worker boundary far cheaper than an array of names. `kinds` is null for a directory that
 * failed. `gitignore` is the text of a regular `.gitignore` file in it and `gitExclude` that of its
 * `.git/info/exclude`, else null: the ranking puts what they ignore last (`ignoredEntries.ts`), and reading
 * them here keeps the main thread to one string per directory.
 *
 * Self-contained (requires inside, no imports, no TS helpers) because its source text is what the
 * worker runs: workers started by `npm start` or mocha have no TypeScript loader.
 */
export function readDirectoriesSync(paths: readonly string[]): Array<string | null> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const fs: typeof import('node:fs') = require('node:fs');
  const out: Array<string | null> = [];
  const readText = (path: string): string | null => {
    try {
      return fs.readFileSync(path, 'utf8');
    } catch {
      return null; // unreadable or gone: no rules, as git does
    }
  };
  for (const directory of paths) {
    let dirents: import('node:fs').Dirent[];
    try {
      dirents = fs.readdirSync(directory, { withFileTypes: true });
    } catch {
      out.push('', null, null, null);
      continue;
    }
    const names: string[] = [];
    let kinds = '';
    let gitignore: string | null = null;
    let gitExclude: string | null = null;
    for (const dirent of dirents) {
      names.push(dirent.name);
      let kind: string;
      if (dirent.isFile()) kind = 'f';
      else if (dirent.isDirectory()) kind = 'd';
      else if (dirent.isSymbolicLink() || dirent.isFIFO() || dirent.isSocket() || dirent.isBlockDevice() || dirent.isCharacterDevice())
        kind = '-';
      else {
        // DT_UNKNOWN (some network and FUSE file systems): ask lstat, which opens nothing.
        const stats = fs.lstatSync(`${directory}/${dirent.name}`, { throwIfNoEntry: false });
        kind = stats?.isFile() ? 'f' : stats?.isDirectory() ? 'd' : '-';
      }
      kinds += kind;
      if (kind === 'f' && dirent.name === '.gitignore') gitignore = readText(`${directory}/.gitignore`);
      else if (kind === 'd' && dirent.name === '.git') gitExclude = readText(`${directory}/.git/info/exclude`);
    }
    out.push(names.join('/'), kinds, gitignore, gitExclude);
  }
  return out;
}

/**
 * `lstat` of each path as `[ino, mtimeMs, ctimeMs]` triples, NaN where the path is not a directory or
 * failed: a typed array moves to the main thread without a copy. Self-contained, like `readDirectoriesSync`.
 */
export function statDirectoriesSync(paths: readonly string[]): Float64Array {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const fs: typeof import('node:fs') = require('node:fs');
  const out = new Float64Array(paths.length * 3).fill(Number.NaN);
  paths.forEach((path, index) => {
    let stats: import('node:fs').Stats | undefined;
    try {
      stats = fs.lstatSync(path, { throwIfNoEntry: false });
    } catch {
      return; // EACCES, ENOTDIR…: the caller reads it again, which lists nothing if it still fails
    }
    if (!stats?.isDirectory()) return;
    out[index * 3] = stats.ino;
    out[index * 3 + 1] = stats.mtimeMs;
    out[index * 3 + 2] = stats.ctimeMs;
  });
  return out;
}

type ReaderRequest = { op: 'read' | 'stat'; paths: readonly string[] };
type ReaderAnswer = Array<string | null> | Float64Array;

function answer({ op, paths }: ReaderRequest): ReaderAnswer {
  return op === 'stat' ? statDirectoriesSync(paths) : readDirectoriesSync(paths);
}

const WORKER_SOURCE = `
const readDirectoriesSync = ${readDirectoriesSync.toString()};
const statDirectoriesSync = ${statDirectoriesSync.toString()};
const { parentPort, workerData } = require('node:worker_threads');
// Linux keeps a nice value per thread, so this lowers only this worker (elsewhere it would be the whole process).
if (workerData.niceness > 0 && process.platform === 'linux') {
  try { require('node:os').setPriority(workerData.niceness); } catch {}
}
parentPort.on('message', ({ op, paths }) => {
  const answer = op === 'stat' ? statDirectoriesSync(paths) : readDirectoriesSync(paths);
  parentPort.postMessage(answer, answer instanceof Float64Array ? [answer.buffer] : []);
});
`;

/**
 * Directory reads and stats on worker threads. A walk in one thread is bound by turning kernel entries into JS
 * strings and objects (measured: async `readdir` on the thread pool is no faster than a synchronous walk,
 * and both trail `fd`, which walks on every core). Workers do that part in parallel and hand back one
 * string per directory. If a worker cannot start or dies, reads fall back to this thread.
 */
export function createWorkerDirectoryReader(workerCount = defaultWorkerCount(), niceness = 0): DirectoryReader {
  const pool: PooledWorker[] = [];
  let broken = false;

  const workerFor = (): PooledWorker | null => {
    if (broken) return null;
    if (pool.length < workerCount) {
      try {
        pool.push(startWorker(niceness, () => (broken = true)));
      } catch {
        broken = true;
        return null;
      }
    }
    // The least loaded worker; ties go to the first, so a small tree keeps to one.
    return pool.reduce((best, worker) => (worker.pending.length < best.pending.length ? worker : best));
  };

  const run = async (request: ReaderRequest): Promise<ReaderAnswer> => {
    const worker = workerFor();
    return worker === null ? answer(request) : worker.send(request).catch(() => answer(request));
  };

  return {
    parallelism: workerCount * 2,
    read: async (paths) => decodeContents((await run({ op: 'read', paths })) as Array<string | null>),
    stat: async (paths) => decodeStamps((await run({ op: 'stat', paths })) as Float64Array),
  };
}

interface PooledWorker {
  readonly pending: Array<{ resolve(answer: ReaderAnswer): void; reject(error: Error): void }>;
  send(request: ReaderRequest): Promise<ReaderAnswer>;
}

function startWorker(niceness: number, onBroken: () => void): PooledWorker {
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { niceness } });
  const pending: PooledWorker['pending'] = [];
  worker.on('message', (answer: ReaderAnswer) => {
    pending.shift()?.resolve(answer);
    if (pending.length === 0) worker.unref();
  });
  const fail = (error: Error): void => {
    onBroken();
    for (const waiting of pending.splice(0)) waiting.reject(error);
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`directory reader exited with code ${code}`)));
  // Idle workers must not keep a CLI or a test run alive; a read in flight holds a ref (see send).
  // After the listeners: adding a 'message' listener refs the worker's port again.
  worker.unref();
  return {
    pending,
    send(request) {
      return new Promise((resolve, reject) => {
        pending.push({ resolve, reject });
        worker.ref();
        worker.postMessage(request);
      });
    },
  };
}

function decodeContents(flat: Array<string | null>): Array<DirectoryContents | null> {
  const contents: Array<DirectoryContents | null> = [];
  for (let i = 0; i < flat.length; i += 4) {
    const kinds = flat[i + 1];
    if (kinds === null) {
      contents.push(null);
      continue;
    }
    const read: { -readonly [K in keyof DirectoryContents]: DirectoryContents[K] } = {
      names: kinds === '' ? [] : flat[i]!.split('/'),
      kinds,
    };
    if (flat[i + 2] !== null) read.gitignore = flat[i + 2]!;
    if (flat[i + 3] !== null) read.gitExclude = flat[i + 3]!;
    contents.push(read);
  }
  return contents;
}

function decodeStamps(triples: Float64Array): Array<DirectoryStamp | null> {
  const stamps: Array<DirectoryStamp | null> = [];
  for (let i = 0; i < triples.length; i += 3) {
    const ino = triples[i]!;
    stamps.push(Number.isNaN(ino) ? null : { ino, mtimeMs: triples[i + 1]!, ctimeMs: triples[i + 2]! });
  }
  return stamps;
}

function defaultWorkerCount(): number {
  return Math.max(1, Math.min(4, availableParallelism()));
}

let shared: DirectoryReader | null = null;
let background: DirectoryReader | null = null;

/** One pool per process: every root's walks share it. */
export function sharedDirectoryReader(): DirectoryReader {
  shared ??= createWorkerDirectoryReader();
  return shared;
}

/**
 * The nice value of the background reader's thread (Linux): the scheduler gives the main thread, ranking a
 * keystroke, the core first when both want it.
 */
export const BACKGROUND_NICENESS = 10;

/**
 * One thread, at a lower priority, for revalidations nobody waits for (`revalidate.ts`, pace `'background'`):
 * while a watch starts they run back to back, and on two cores they took CPU from the keystrokes (issue 26).
 */
export function sharedBackgroundDirectoryReader(): DirectoryReader {
  background ??= createWorkerDirectoryReader(1, BACKGROUND_NICENESS);
  return background;
}
