import { stat, statSync, type Stats } from 'node:fs';
import { HostCommandError } from '../../protocol/hostErrors';
import type { DirectoryStamp } from './directoryFacts';
import { applyContents, excludedDirectories, flatten, newNode, type DirectoryNode } from './directoryNode';
import { sharedDirectoryReader, type DirectoryReader } from './directoryReader';
import type { Listing, WalkEntry } from './walkEntry';

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
  refresh(changes?: WatchedChanges): Promise<Listing>;
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

/** Absolute paths a watcher named since the last refresh (created, removed, renamed or changed entries). */
export interface WatchedChanges {
  readonly paths: Iterable<string>;
}

export interface TreeSnapshotOptions {
  racyWindowMs?: number;
  /**
   * The time a read happens, in ms since the epoch as file times are (default `Date.now`). Tests set it
   * ahead to act out a file server whose clock lags this host's, where only the stamps tell a change.
   */
  clock?: () => number;
  /** Where directories are read; default: the process's worker pool. */
  reader?: DirectoryReader;
  /** Record directory stamps for the next refresh (default). A one-off walk has no next refresh. */
  keepStamps?: boolean;
  /**
   * Runs on a kept listing once its stamps are taken, before the next keystroke: the cache packs the names
   * for the ranker here while the person has not typed yet.
   */
  whileIdle?: (listing: Listing) => void;
  /** A refresh found the tree changed: `next` replaces `previous` (the cache's name index copies from it). */
  onListingChanged?: (next: readonly WalkEntry[], previous: readonly WalkEntry[]) => void;
  /** The root was replaced by another directory (a new inode) since the last refresh: a watch on it is stale. */
  onRootReplaced?: () => void;
}

export function createTreeSnapshot(root: string, options: TreeSnapshotOptions = {}): TreeSnapshot {
  const context: WalkContext = {
    racyWindowMs: options.racyWindowMs ?? RACY_WINDOW_MS,
    clock: options.clock ?? Date.now,
    reader: options.reader ?? sharedDirectoryReader(),
    counters: { directoriesRead: 0 },
  };
  let top: DirectoryNode | null = null;
  let topIno = -1;
  let flat: WalkEntry[] = [];
  // One refresh at a time per root: two concurrent revalidations would race on the same nodes.
  let tail: Promise<unknown> = Promise.resolve();

  const refreshNow = async (changes: WatchedChanges | undefined): Promise<{ listing: Listing; unstamped: DirectoryNode[] }> => {
    const rootStats = await statRoot(root);
    if (top === null || topIno !== rootStats.ino) {
      if (top !== null) options.onRootReplaced?.();
      top = newNode(root, '', null);
      topIno = rootStats.ino;
      changes = undefined;
    }
    const start = changes === undefined ? fullRevalidation(top, context.racyWindowMs) : await watchedRevalidation(top, changes, context);
    const { changed, unstamped } = await revalidate(start, context);
    if (changed) {
      const previous = flat;
      flat = flatten(top);
      options.onListingChanged?.(flat, previous);
    }
    return { listing: { root, entries: flat, tree: top }, unstamped };
  };

  return {
    refresh(changes) {
      const result = tail.then(() => refreshNow(changes));
      // Stamps are taken after the answer is out, so a first call costs one read per directory and
      // nothing more; the next call waits for them (it is queued behind).
      tail = result
        .then(async ({ unstamped, listing }) => {
          if (options.keepStamps === false) return;
          await stampAll(top!, unstamped, context.reader);
          options.whileIdle?.(listing);
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

interface WalkContext {
  racyWindowMs: number;
  clock: () => number;
  reader: DirectoryReader;
  counters: { directoriesRead: number };
}

/**
 * Where a revalidation starts. `trustKnown`: a watcher vouches for every directory it did not name, so
 * only directories never read yet are read below the ones it starts from, and nothing is stat'ed.
 */
interface RevalidationStart {
  read: DirectoryNode[];
  stat: DirectoryNode[];
  trustKnown: boolean;
  /** The tree already changed before any read (a subtree dropped, a new top). */
  changed: boolean;
}

/** Every known directory, from the top (stat'ed here, following a symlink): stamps decide what is read again. */
function fullRevalidation(top: DirectoryNode, racyWindowMs: number): RevalidationStart {
  const now = top.stamp === null ? null : stampOf(statSyncOf(top.absolute));
  if (now === null || !isUnchanged(top, now, racyWindowMs)) return { read: [top], stat: [], trustKnown: false, changed: top.readAt === 0 };
  return {
    read: top.children.filter((child) => child.stamp === null),
    stat: top.children.filter((child) => child.stamp !== null),
    trustKnown: false,
    changed: false,
  };
}

/**
 * Only what a watcher named: the directory holding each named path is read again (its entries changed),
 * and a named path that is a known directory is checked by inode, because a directory moved or created
 * where a known one was holds other content: then its whole subtree is read anew.
 */
async function watchedRevalidation(top: DirectoryNode, changes: WatchedChanges, context: WalkContext): Promise<RevalidationStart> {
  const reread = new Set<DirectoryNode>();
  const named = new Set<DirectoryNode>();
  const prefix = top.absolute === '/' ? '/' : `${top.absolute}/`;
  for (const path of changes.paths) {
    if (path === top.absolute) continue; // the root's own attributes; its inode is checked on every refresh
    if (!path.startsWith(prefix)) return fullRevalidation(top, context.racyWindowMs);
    const segments = path.slice(prefix.length).split('/');
    const last = segments.length - 1;
    // Nothing below a `.git` or `node_modules` folder is ever listed. The folder itself is still looked at
    // (its parent is read again), so the tree knows of it: a new one is left out of the watch (`liveTree.ts`).
    if (segments.some((segment, index) => index < last && (segment === '.git' || segment === 'node_modules'))) continue;
    let node = top;
    let depth = 0;
    for (; depth < last; depth += 1) {
      const child = childNamed(node, segments[depth]!);
      if (child === undefined) break;
      node = child;
    }
    // The nearest known directory: reading it finds any folder in between as new.
    reread.add(node);
    if (depth === last) {
      const child = childNamed(node, segments[last]!);
      if (child !== undefined) named.add(child);
    }
  }
  let changed = false;
  const suspects = [...named];
  const stamps = suspects.length > 0 ? await context.reader.stat(suspects.map((node) => node.absolute)) : [];
  suspects.forEach((node, index) => {
    const now = stamps[index] ?? null;
    if (now !== null && node.stamp !== null && node.stamp.ino === now.ino) return;
    // Another directory now (or gone: its parent's read drops it): nothing read below the old one holds.
    node.entries = [];
    node.children = [];
    node.stamp = null;
    reread.add(node);
    changed = true;
  });
  return { read: [...reread], stat: [], trustKnown: true, changed };
}

function childNamed(node: DirectoryNode, name: string): DirectoryNode | undefined {
  for (const child of node.children) if (child.entry?.name === name) return child;
  return undefined;
}

/**
 * Stats known directories and re-reads the ones that are new, moved, or racy. Both go to the directory
 * reader in batches, enough in flight to keep its threads busy; the root is stat'ed before, following a
 * symlink (nothing below it is followed).
 */
function revalidate(start: RevalidationStart, context: WalkContext): Promise<{ changed: boolean; unstamped: DirectoryNode[] }> {
  const { reader, racyWindowMs } = context;
  const { trustKnown } = start;
  return new Promise((resolve) => {
    const unstamped: DirectoryNode[] = [];
    let changed = start.changed;
    const toStat: DirectoryNode[] = [...start.stat];
    const toRead: DirectoryNode[] = [...start.read];
    let batchesInFlight = 0;
    const enqueue = (nodes: Iterable<DirectoryNode>): void => {
      for (const node of nodes) {
        if (node.readAt === 0) toRead.push(node);
        else if (!trustKnown) (node.stamp === null ? toRead : toStat).push(node);
      }
    };
    const settle = (node: DirectoryNode, now: DirectoryStamp | null): void => {
      if (now !== null && isUnchanged(node, now, racyWindowMs)) enqueue(node.children);
      else toRead.push(node);
    };
    // Split what is queued among the threads; small batches early, so the walk fans out fast.
    const takeBatch = (queue: DirectoryNode[], most: number): DirectoryNode[] =>
      queue.splice(-Math.min(most, Math.max(1, Math.ceil(queue.length / reader.parallelism))));
    const startRead = (): void => {
      const batch = takeBatch(toRead, READ_BATCH);
      const readAt = context.clock();
      for (const node of batch) {
        unstamped.push(node);
        node.stamp = null;
        node.readAt = readAt;
      }
      context.counters.directoriesRead += batch.length;
      void reader.read(batch.map((node) => node.absolute)).then((contents) => {
        batch.forEach((node, index) => {
          if (applyContents(node, contents[index] ?? null)) changed = true;
          enqueue(node.children);
        });
        done();
      });
    };
    const startStat = (): void => {
      const batch = takeBatch(toStat, STAT_BATCH);
      void reader.stat(batch.map((node) => node.absolute)).then((stamps) => {
        batch.forEach((node, index) => settle(node, stamps[index] ?? null));
        done();
      });
    };
    const done = (): void => {
      batchesInFlight -= 1;
      step();
    };
    const step = (): void => {
      // Reads first: they find more work; stats mostly confirm what is known.
      while (batchesInFlight < reader.parallelism && (toRead.length > 0 || toStat.length > 0)) {
        batchesInFlight += 1;
        if (toRead.length > 0) startRead();
        else startStat();
      }
      if (batchesInFlight === 0) resolve({ changed, unstamped });
    };
    step();
  });
}

/** Most directories sent to a thread at once: enough to amortise the message, few enough to share work. */
const READ_BATCH = 256;
const STAT_BATCH = 1_024;

/** Records what each freshly read directory looks like (`readAt` was taken before its read). */
async function stampAll(top: DirectoryNode, nodes: DirectoryNode[], reader: DirectoryReader): Promise<void> {
  const below = nodes.filter((node) => node !== top);
  if (below.length < nodes.length) top.stamp = stampOf(statSyncOf(top.absolute));
  const batches: DirectoryNode[][] = [];
  for (let start = 0; start < below.length; start += STAT_BATCH) batches.push(below.slice(start, start + STAT_BATCH));
  await Promise.all(
    batches.map(async (batch) => {
      const stamps = await reader.stat(batch.map((node) => node.absolute));
      batch.forEach((node, index) => (node.stamp = stamps[index] ?? null));
    }),
  );
}

/** The root may be a symlink to a workspace, so it is followed; nothing below it is. */
function statSyncOf(root: string): Stats | undefined {
  try {
    return statSync(root, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

function stampOf(stats: Stats | undefined): DirectoryStamp | null {
  return stats?.isDirectory() ? { ino: stats.ino, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs } : null;
}

function isUnchanged(node: DirectoryNode, now: DirectoryStamp, racyWindowMs: number): boolean {
  const stamp = node.stamp;
  if (stamp === null) return false;
  // Inode and ctime catch a directory replaced by one whose mtime is old (`mv` of an old folder, tar).
  if (stamp.ino !== now.ino || stamp.mtimeMs !== now.mtimeMs || stamp.ctimeMs !== now.ctimeMs) return false;
  // git's racy-timestamp rule: a change in the same tick as our read would leave the stamp unchanged.
  // Stamps are taken after the read, so a change in between is in the stamp; it is caught because it
  // moved the ctime past the read. The ctime, not only the mtime: tar and rsync put mtimes back, and
  // nothing can put a ctime back.
  return Math.max(now.mtimeMs, now.ctimeMs) < node.readAt - racyWindowMs;
}
