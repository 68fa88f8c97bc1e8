import type { TreeWatcherFactory } from './treeWatcher';

/**
 * A batch this large may hide lost events: inotify drops events beyond its queue (16,384 by default) and
 * `@parcel/watcher` passes the overflow on to no one, so a burst of this size is answered by a full
 * revalidation by stamps, which a `git checkout` of that size would cost anyway.
 */
export const MAX_TRUSTED_BATCH = 4_096;

/**
 * The `@parcel/watcher` watch (inotify on Linux, FSEvents on macOS; native, on a thread of its own). Chosen
 * over chokidar and Node's recursive `fs.watch` by measurement (docs/paths.md, "Live listings"). Nothing
 * below `.git` or inside a `node_modules` directory is watched: neither is ever listed (the `node_modules`
 * entry itself still reports, since a *file* of that name is listed).
 */
export const parcelTreeWatcher: TreeWatcherFactory = async (root, listener) => {
  // Loaded on first use, so a host without the native module still lists (by stamps) and says why.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const watcher: typeof import('@parcel/watcher') = require('@parcel/watcher');
  const subscription = await watcher.subscribe(
    root,
    (error, events) => {
      if (error) listener.lost(`watcher error: ${error.message}`);
      else if (events.length >= MAX_TRUSTED_BATCH) listener.lost(`a burst of ${events.length} events`);
      else listener.changed(events.map((event) => event.path));
    },
    // `node_modules/*`, not `node_modules/**`: the latter also matches the folder itself, and hides a file of that name.
    { ignore: ['**/.git', '**/.git/**', '**/node_modules/*'] },
  );
  return { close: () => subscription.unsubscribe() };
};
