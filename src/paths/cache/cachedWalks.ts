import { defer, type Observable } from 'rxjs';
import { warmRankingOnce } from '../rank/warmRanking';
import { followsListing, hasNameIndex, nameIndexOf } from '../score/nameIndex';
import type { TreeSnapshotOptions } from '../walk/treeSnapshot';
import type { Listing } from '../walk/walkEntry';
import { createLiveTree, DEFAULT_WATCH_IDLE_MS, type LiveTree, type LiveTreeOptions, type ServedBy } from './liveTree';
import { parcelTreeWatcher } from './parcelTreeWatcher';

/** Roots whose walked tree stays cached for fast keystroke searches (least recently used is dropped). */
export const MAX_CACHED_ROOTS = 8;

export interface CachedWalksOptions extends TreeSnapshotOptions, Partial<LiveTreeOptions> {
  maxCachedRoots?: number;
}

/** A `walk$` replacement that keeps each root's tree and revalidates it instead of walking again. */
export interface CachedWalks {
  walk$(root: string): Observable<Listing>;
  /** Directory reads across all roots, for tests that check the cache is really used. */
  directoriesRead(root: string): number;
  /** How the last call on `root` was answered (null: none yet), for tests and the benchmark. */
  servedBy(root: string): ServedBy | null;
  /** Ends every watch. */
  close(): Promise<void>;
}

export function createCachedWalks(options: CachedWalksOptions = {}): CachedWalks {
  const maxRoots = options.maxCachedRoots ?? MAX_CACHED_ROOTS;
  const liveOptions: LiveTreeOptions = {
    watcher: options.watcher === undefined ? parcelTreeWatcher : options.watcher,
    idleMs: options.idleMs ?? DEFAULT_WATCH_IDLE_MS,
    debug: options.debug,
    isNetworkFileSystem: options.isNetworkFileSystem,
    staleWhileWatchStartsMs: options.staleWhileWatchStartsMs,
    watchAfterPauseMs: options.watchAfterPauseMs,
  };
  // Map iteration order is insertion order: re-inserting on use makes the first key the least recent.
  const trees = new Map<string, LiveTree>();

  const treeFor = (root: string): LiveTree => {
    const existing = trees.get(root);
    if (existing !== undefined) trees.delete(root);
    // Packing the names before a listing is answered makes the first keystroke reuse them (the same array → a
    // cached index); after a change, the new listing's names are copied from the old one's index, not folded
    // again. The process's first listing also warms the scorer, so the first keystrokes do not run it unoptimised.
    const beforeAnswer = (listing: Listing): void => {
      if (hasNameIndex(listing.entries)) return;
      const began = performance.now();
      nameIndexOf(listing.entries);
      warmRankingOnce(listing);
      options.debug?.(`paths: ${listing.root} names packed before the answer in ${(performance.now() - began).toFixed(0)} ms`);
    };
    const packing = { beforeAnswer, onListingChanged: followsListing };
    const tree = existing ?? createLiveTree(root, { ...packing, ...options }, liveOptions);
    trees.set(root, tree);
    while (trees.size > maxRoots) {
      const oldest = trees.keys().next().value!;
      void trees.get(oldest)!.close();
      trees.delete(oldest);
    }
    return tree;
  };

  return {
    walk$: (root) => defer(() => treeFor(root).refresh()),
    directoriesRead: (root) => trees.get(root)?.directoriesRead ?? 0,
    servedBy: (root) => trees.get(root)?.servedBy ?? null,
    close: async () => {
      const closing = [...trees.values()].map((tree) => tree.close());
      trees.clear();
      await Promise.all(closing);
    },
  };
}
