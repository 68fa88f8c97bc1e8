import type { DirectoryNode } from './directoryNode';
import type { DirectoryReader } from './directoryReader';
import { isUnchanged, stampOf, statSyncOf } from './directoryStamps';

/*
 * Where a refresh of a kept tree starts (`treeSnapshot.ts`): every known directory by its stamps, or only what a
 * file watcher named.
 */

/** Absolute paths a watcher named since the last refresh (created, removed, renamed or changed entries). */
export interface WatchedChanges {
  readonly paths: Iterable<string>;
}

export interface WalkContext {
  racyWindowMs: number;
  clock: () => number;
  reader: DirectoryReader;
  /** Where a revalidation nobody waits for reads (`revalidate.ts`, pace `'background'`). */
  backgroundReader: DirectoryReader;
  counters: { directoriesRead: number };
}

/**
 * Where a revalidation starts. `trustKnown`: a watcher vouches for every directory it did not name, so
 * only directories never read yet are read below the ones it starts from, and nothing is stat'ed.
 */
export interface RevalidationStart {
  read: DirectoryNode[];
  stat: DirectoryNode[];
  trustKnown: boolean;
  /** The tree already changed before any read (a subtree dropped, a new top). */
  changed: boolean;
}

/** Every known directory, from the top (stat'ed here, following a symlink): stamps decide what is read again. */
export function fullRevalidation(top: DirectoryNode, racyWindowMs: number): RevalidationStart {
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
export async function watchedRevalidation(top: DirectoryNode, changes: WatchedChanges, context: WalkContext): Promise<RevalidationStart> {
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
