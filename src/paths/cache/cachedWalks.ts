import { defer, type Observable } from 'rxjs';
import { nameIndexOf } from '../score/nameIndex';
import { createTreeSnapshot, type TreeSnapshot, type TreeSnapshotOptions } from '../walk/treeSnapshot';
import type { Listing } from '../walk/walkEntry';

/** Roots whose walked tree stays cached for fast keystroke searches (least recently used is dropped). */
export const MAX_CACHED_ROOTS = 8;

export interface CachedWalksOptions extends TreeSnapshotOptions {
  maxCachedRoots?: number;
}

/** A `walk$` replacement that keeps each root's tree and revalidates it instead of walking again. */
export interface CachedWalks {
  walk$(root: string): Observable<Listing>;
  /** Directory reads across all roots, for tests that check the cache is really used. */
  directoriesRead(root: string): number;
}

export function createCachedWalks(options: CachedWalksOptions = {}): CachedWalks {
  const maxRoots = options.maxCachedRoots ?? MAX_CACHED_ROOTS;
  // Map iteration order is insertion order: re-inserting on use makes the first key the least recent.
  const snapshots = new Map<string, TreeSnapshot>();

  const snapshotFor = (root: string): TreeSnapshot => {
    const existing = snapshots.get(root);
    if (existing !== undefined) snapshots.delete(root);
    // Packing the names while idle makes the first keystroke reuse them (the same array → a cached index).
    const snapshot = existing ?? createTreeSnapshot(root, { whileIdle: (listing) => nameIndexOf(listing.entries), ...options });
    snapshots.set(root, snapshot);
    while (snapshots.size > maxRoots) snapshots.delete(snapshots.keys().next().value!);
    return snapshot;
  };

  return {
    walk$: (root) => defer(() => snapshotFor(root).refresh()),
    directoriesRead: (root) => snapshots.get(root)?.directoriesRead ?? 0,
  };
}
