import { stat, type Stats } from 'node:fs';
import { HostCommandError } from '../../protocol/hostErrors';
import { excludedDirectories, flatten, newNode, type DirectoryNode } from './directoryNode';
import { sharedBackgroundDirectoryReader, sharedDirectoryReader, type DirectoryReader } from './directoryReader';
import { markIgnored } from './ignoredEntries';
import { revalidate, stampAll, type RevalidationPace } from './revalidate';
import { fullRevalidation, watchedRevalidation, type WalkContext, type WatchedChanges } from './revalidationStart';
import type { Listing, WalkEntry } from './walkEntry';

export type { WatchedChanges } from './revalidationStart';

/**
 * The walked tree of one root, kept between calls and revalidated by directory timestamps: adding,
 * removing or renaming an entry (file↔dir and symlink swaps included) changes the parent directory's
 * mtime and ctime, so a directory whose inode and stamps are unchanged still holds the entries read
 * last time. One stat per directory replaces one read per directory, and the answer stays identical to
 * a fresh walk (issue 3). Content changes do not matter: listings carry no sizes.
 */
export interface TreeSnapshot {
  /**
   * Brings the tree up to date and returns every listed entry (rules 1–3). Without `changes`, every known
   * directory is revalidated by its stamps. With them, only what a file watcher reported is looked at: the
   * caller vouches that the watch covered the whole tree since before this snapshot's last full refresh.
   */
  refresh(changes?: WatchedChanges, pace?: RevalidationPace): Promise<Listing>;
  /** Directory reads so far (a fresh walk reads every directory once). */
  readonly directoriesRead: number;
  /** The `.git` and `node_modules` directories the last refresh skipped (absolute paths). */
  excludedDirectories(): string[];
}

/**
 * git's racy-timestamp rule: a directory whose mtime is this close to the moment it was read may have
 * changed again within the same timestamp tick, so it is re-read on the next call. 2 s covers the
 * coarsest common file-system granularity (FAT) and the kernel's coarse clock lagging `Date.now()`.
 */
export const RACY_WINDOW_MS = 2_000;

export interface TreeSnapshotOptions {
  racyWindowMs?: number;
  /**
   * The time a read happens, in ms since the epoch as file times are (default `Date.now`). Tests set it
   * ahead to act out a file server whose clock lags this host's, where only the stamps tell a change.
   */
  clock?: () => number;
  /** Where directories are read; default: the process's worker pool. */
  reader?: DirectoryReader;
  /**
   * Where a revalidation nobody waits for reads; default: `reader` when one is given, else the process's
   * low-priority background thread.
   */
  backgroundReader?: DirectoryReader;
  /** Record directory stamps for the next refresh (default). A one-off walk has no next refresh. */
  keepStamps?: boolean;
  /**
   * How a fresh read's stamps are taken after its answer is out (default `'foreground'`: the next call waits for
   * them). `'background'` when the next calls are answered from the last listing meanwhile (`liveTree.ts`): the
   * first keystrokes after a first listing then do not share both cores with its 29k `lstat`s (issue 26).
   */
  stampPace?: RevalidationPace;
  /**
   * Runs on each kept listing before it is answered: the cache packs the names for the ranker here (a lookup once
   * they are), so the keystroke typed right after a first listing finds them packed.
   */
  beforeAnswer?: (listing: Listing) => void;
  /** A refresh found the tree changed: `next` replaces `previous` (the cache's name index copies from it). */
  onListingChanged?: (next: readonly WalkEntry[], previous: readonly WalkEntry[]) => void;
  /** The root was replaced by another directory (a new inode) since the last refresh: a watch on it is stale. */
  onRootReplaced?: () => void;
  /**
   * Absolute paths of folders whose entries rank as ignored whatever the `.gitignore` files say: the service's
   * own data folder, when someone keeps it inside a project (`ATS_DATA_DIR=./.data`).
   */
  ignoredDirectories?: readonly string[];
}

export function createTreeSnapshot(root: string, options: TreeSnapshotOptions = {}): TreeSnapshot {
  const context: WalkContext = {
    racyWindowMs: options.racyWindowMs ?? RACY_WINDOW_MS,
    clock: options.clock ?? Date.now,
    reader: options.reader ?? sharedDirectoryReader(),
    backgroundReader: options.backgroundReader ?? options.reader ?? sharedBackgroundDirectoryReader(),
    counters: { directoriesRead: 0 },
  };
  let top: DirectoryNode | null = null;
  let topIno = -1;
  let flat: WalkEntry[] = [];
  const alwaysIgnored = relativePathsBelow(root, options.ignoredDirectories ?? []);
  // One refresh at a time per root: two concurrent revalidations would race on the same nodes.
  let tail: Promise<unknown> = Promise.resolve();

  const refreshNow = async (
    changes: WatchedChanges | undefined,
    pace: RevalidationPace | undefined,
  ): Promise<{ listing: Listing; unstamped: DirectoryNode[] }> => {
    const rootStats = await statRoot(root);
    if (top === null || topIno !== rootStats.ino) {
      if (top !== null) options.onRootReplaced?.();
      top = newNode(root, '', null, null);
      topIno = rootStats.ino;
      changes = undefined;
    }
    const start = changes === undefined ? fullRevalidation(top, context.racyWindowMs) : await watchedRevalidation(top, changes, context);
    const { changed, unstamped } = await revalidate(start, context, pace);
    // After the reads, before the answer: the marks are part of the listing (they order it), as its entries are.
    const marksChanged = markIgnored(top, unstamped, alwaysIgnored);
    if (changed || marksChanged) {
      const previous = flat;
      flat = flatten(top);
      options.onListingChanged?.(flat, previous);
    }
    return { listing: { root, entries: flat, tree: top }, unstamped };
  };

  return {
    refresh(changes, pace) {
      // The names are packed before the answer: once it was out (a macrotask later), the keystroke a person types
      // at once after a first listing waited for the packing (45 ms of 134k names) on top of its ranking; a first
      // listing takes seconds, and 45 ms more there goes unseen (issue 26). On a kept listing it is a lookup.
      const result = tail
        .then(() => refreshNow(changes, pace))
        .then((refreshed) => {
          if (options.keepStamps !== false) options.beforeAnswer?.(refreshed.listing);
          return refreshed;
        });
      // Stamps are taken after the answer is out, so a first call costs one read per directory and
      // nothing more; the next call waits for them (it is queued behind).
      tail = result
        .then(async ({ unstamped }) => {
          if (options.keepStamps === false) return;
          // A macrotask later: the answer is out (written to its socket) before the stats are sent.
          await new Promise((resolve) => setImmediate(resolve));
          const pace = options.stampPace ?? 'foreground';
          await stampAll(top!, unstamped, pace === 'background' ? context.backgroundReader : context.reader, pace);
        })
        .catch(() => undefined);
      return result.then(({ listing }) => listing);
    },
    get directoriesRead() {
      return context.counters.directoriesRead;
    },
    excludedDirectories: () => (top === null ? [] : excludedDirectories(top)),
  };
}

/** `folders` that lie below `root`, relative to it. */
function relativePathsBelow(root: string, folders: readonly string[]): Set<string> {
  const prefix = root.endsWith('/') ? root : `${root}/`;
  return new Set(folders.filter((folder) => folder.startsWith(prefix)).map((folder) => folder.slice(prefix.length).replace(/\/+$/, '')));
}

async function statRoot(root: string): Promise<Stats> {
  // The root itself may be a symlink (a workspace path); only entries below it are never followed.
  const result = await new Promise<Stats | NodeJS.ErrnoException>((resolve) => stat(root, (error, value) => resolve(error ?? value)));
  if (result instanceof Error) {
    if (result.code === 'EACCES' || result.code === 'EPERM') {
      throw new HostCommandError('forbidden', `root cannot be read (permission denied): ${root}`);
    }
    throw new HostCommandError('not_found', `root not found: ${root}`);
  }
  if (!result.isDirectory()) throw new HostCommandError('not_a_directory', `root is not a directory: ${root}`);
  return result;
}
