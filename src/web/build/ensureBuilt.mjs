// Before `npm start`: builds the page when dist/web is missing or older than a source file under src/web,
// so a fresh clone (or an install that skipped the `prepare` script) still serves a page. The build's own
// output goes to stderr: the service's first stdout line must stay `listening on …`. Starts at the same
// moment (two replicas, a test starting several servers) build once: the others wait for that build.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const built = path.join(repo, 'dist', 'web', 'index.html');
const lock = path.join(repo, 'dist', '.web-build.lock');
/** A lock older than this was left by a build that died: it is taken over. */
const STALE_LOCK_MS = 120_000;

function newestSource(folder) {
  let newest = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(full) : statSync(full).mtimeMs);
  }
  return newest;
}

const stale = () => !existsSync(built) || statSync(built).mtimeMs < newestSource(path.join(repo, 'src', 'web'));
const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

function takeLock() {
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

if (stale() && takeLock()) {
  try {
    if (stale()) {
      const vite = path.join(repo, 'node_modules', 'vite', 'bin', 'vite.js');
      const result = spawnSync(process.execPath, [vite, 'build', '--config', path.join(repo, 'vite.config.mts')], {
        cwd: repo,
        stdio: ['ignore', process.stderr, process.stderr],
      });
      if (result.status !== 0) process.stderr.write('the web page could not be built (see above); the API still starts\n');
    }
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
