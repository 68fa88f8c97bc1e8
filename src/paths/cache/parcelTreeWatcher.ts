import { realpath } from 'node:fs/promises';
import { createNewestFirstQueue } from './newestFirstQueue';
import type { TreeWatcherFactory } from './treeWatcher';

/**
 * A batch this large may hide lost events: inotify drops events beyond its queue (16,384 by default) and
 * `@parcel/watcher` passes the overflow on to no one; and in bursts of ~3,500 changes on the 135k-entry tree
 * it reported nothing for some folder renames (bench/watchers.ts; docs/paths.md). So a batch of this many
 * paths is answered by one full revalidation by stamps, which a `git checkout` of that size costs anyway.
 */
export const MAX_TRUSTED_BATCH = 1_024;

/**
 * One watch starts at a time in the process, the root listed last first: each start crawls its whole tree on a
 * thread of its own (seconds for 135k entries), and four roots registered in the same minute crawled at once on
 * a 2-core machine, beside the keystrokes typed into the newest root (issue 26: none was up after 16 s). Until
 * its watch is up, a root is answered from its last listing or by stamps, as before.
 */
const watchStarts = createNewestFirstQueue();

/**
 * The `@parcel/watcher` watch (inotify on Linux, FSEvents on macOS; native, on a thread of its own). Chosen
 * over chokidar and Node's recursive `fs.watch` by measurement (docs/paths.md, "Live listings"). The `.git`
 * and `node_modules` directories the walk found are left out by their paths: the same rule as globs (a
 * `node_modules/*` pattern at any depth) cost the watch's start 3–4× the CPU, since the watcher matches every
 * path it crawls against each glob. One created later is watched until the live tree watches anew (`liveTree.ts`).
 */
export const parcelTreeWatcher: TreeWatcherFactory = async (root, listener, options) => {
  // Loaded on first use, so a host without the native module still lists (by stamps) and says why.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const watcher: typeof import('@parcel/watcher') = require('@parcel/watcher');
  // A root may be a symlink (a workspace path); inotify watches what it points to, and names paths there.
  const real = await realpath(root);
  const toReal = (path: string) => real + path.slice(root.length);
  const fromReal = (path: string) => (path.startsWith(real) ? root + path.slice(real.length) : path);
  const subscription = await watchStarts.run(() =>
    watcher.subscribe(
      real,
      (error, events) => {
        if (error) listener.lost(`watcher error: ${error.message}`);
        else if (events.length >= MAX_TRUSTED_BATCH) listener.lost(`a burst of ${events.length} events`);
        else listener.changed(events.map((event) => fromReal(event.path)));
      },
      { ignore: options.ignore.map(toReal) },
    ),
  );
  return { close: () => subscription.unsubscribe() };
};
