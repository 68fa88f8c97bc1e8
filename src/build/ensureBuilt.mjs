// Before `npm start` (and as `prepare` on `npm ci`): builds what the server runs when it is missing or older
// than its sources, so a fresh clone or an edited file still starts with `npm start`.
// - the page: Vite, src/web → dist/web;
// - the server: tsc, src + pipelines → dist/node. The server runs compiled because ts-node's own start costs
//   2–3 s on a 2-core machine, longer than the whole start-up budget (issue 13: `listening` within 2 s);
//   with it, the pi agent process as one bundle, dist/node/agents (src/build/bundlePiAgent.mjs).
// Build output goes to stderr: the service's first stdout line must stay `listening on …`. Starts at the same
// moment (two replicas, a test starting several servers) build once: the others wait on a lock folder.
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const at = (...parts) => path.join(repo, ...parts);
/** A lock older than this was left by a build that died: it is taken over. */
const STALE_LOCK_MS = 120_000;
const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

function newestSource(file, skip) {
  if (skip.includes(file)) return 0;
  const stat = statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(file).map((name) => newestSource(path.join(file, name), skip)));
}

function takeLock(lock, stale) {
  mkdirSync(path.dirname(lock), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      return true;
    } catch {
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
      else if (!stale()) return false; // another start finished the build meanwhile
      else sleep(200);
    }
  }
}

/** Runs `build` when `stamp` is missing or older than any of `sources`; `build` returns whether it succeeded. */
function buildWhenStale({ name, stamp, sources, skip = [], build }) {
  const stale = () =>
    !existsSync(stamp) || statSync(stamp).mtimeMs < Math.max(...sources.map((source) => newestSource(source, skip)));
  if (!stale() || !takeLock(at('dist', `.${name}-build.lock`), stale)) return;
  try {
    if (stale() && !build()) process.stderr.write(`the ${name} could not be built (see above)\n`);
  } finally {
    rmSync(at('dist', `.${name}-build.lock`), { recursive: true, force: true });
  }
}

const run = (script, args) =>
  spawnSync(process.execPath, [at('node_modules', ...script), ...args], {
    cwd: repo,
    stdio: ['ignore', process.stderr, process.stderr],
  }).status === 0;

buildWhenStale({
  name: 'page',
  stamp: at('dist', 'web', 'index.html'),
  sources: [at('src', 'web')],
  // Without vite (an install with --omit=dev) the API still starts, without its page.
  build: () => run(['vite', 'bin', 'vite.js'], ['build', '--config', at('vite.config.mts')]),
});

buildWhenStale({
  name: 'server',
  stamp: at('dist', 'node', '.built'),
  sources: [at('src'), at('pipelines'), at('tsconfig.json'), at('tsconfig.build.json'), at('package-lock.json')],
  skip: [at('src', 'web')],
  build: () => {
    // An incremental build trusts its .tsbuildinfo: with the output gone, it would emit nothing.
    if (!existsSync(at('dist', 'node', 'src', 'cli', 'start.js'))) rmSync(at('dist', 'node', '.tsbuildinfo'), { force: true });
    // tsc emits JavaScript even when a type is wrong (`npm test` is where types fail); only a missing output
    // is a failed build.
    run(['typescript', 'bin', 'tsc'], ['-p', at('tsconfig.build.json')]);
    if (!existsSync(at('dist', 'node', 'src', 'cli', 'start.js'))) return false;
    // tsc copies no SQL: the PostgreSQL migrations are read from beside the compiled migrate.js.
    cpSync(at('src', 'store', 'postgres', 'migrations'), at('dist', 'node', 'src', 'store', 'postgres', 'migrations'), {
      recursive: true,
    });
    // The pi agent process as one bundle (a first prompt's start, docs/speed.md); without it agents still run.
    spawnSync(process.execPath, [at('src', 'build', 'bundlePiAgent.mjs')], { cwd: repo, stdio: ['ignore', process.stderr, process.stderr] });
    writeFileSync(at('dist', 'node', '.built'), new Date().toISOString() + '\n');
    return true;
  },
});
