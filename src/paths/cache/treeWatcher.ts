/** What a live listing needs from a file watcher; `parcelTreeWatcher.ts` is the one shipped. */

/** Told what changed below a watched root. */
export interface TreeWatchListener {
  /** Absolute paths of entries created, removed, renamed (both names) or changed, in a batch. */
  changed(paths: readonly string[]): void;
  /**
   * Events may have been lost (the watcher failed, or a burst too large to trust): the listing must be
   * revalidated by its stamps before it is trusted again.
   */
  lost(reason: string): void;
}

export interface TreeWatch {
  close(): Promise<void>;
}

export interface TreeWatchOptions {
  /** Absolute paths of directories to leave unwatched, with everything below them (`.git`, `node_modules`). */
  readonly ignore: readonly string[];
}

/**
 * Starts watching every directory below `root`; resolves once the watch covers the whole tree, rejects when it
 * cannot (inotify's watch limit, a missing native module…), and the listing then keeps to stamps.
 */
export type TreeWatcherFactory = (root: string, listener: TreeWatchListener, options: TreeWatchOptions) => Promise<TreeWatch>;
