import { lstatSync, type Dirent } from 'node:fs';
import { newWalkEntry, type WalkEntry } from './walkEntry';

/** One walked directory of a cached tree: what its last read found, and when. */
export interface DirectoryNode {
  readonly absolute: string;
  /** Relative path of the directory; '' for the root. */
  readonly relative: string;
  /** The directory's own listed entry; null for the root. */
  readonly entry: WalkEntry | null;
  stamp: DirectoryStamp | null;
  /** `Date.now()` just before the last read of this directory. */
  readAt: number;
  /** Listed direct entries (rules 1–3). */
  entries: WalkEntry[];
  /** Listed direct subdirectories, walked in turn. */
  children: DirectoryNode[];
}

/** The directory's inode and timestamps, taken after its read (null: not taken yet, or it failed). */
export interface DirectoryStamp {
  ino: number;
  mtimeMs: number;
  ctimeMs: number;
}

export function newNode(absolute: string, relative: string, entry: WalkEntry | null): DirectoryNode {
  return { absolute, relative, entry, stamp: null, readAt: 0, entries: [], children: [] };
}

/**
 * Rules 1–3 for one directory's entries. On a re-read, subdirectories that are still there keep their
 * node (and subtree, revalidated on its own) and entries keep their object (and folded names).
 */
export function applyDirents(node: DirectoryNode, dirents: Dirent[]): void {
  const previousChildren = node.children.length > 0 ? new Map(node.children.map((child) => [child.relative, child])) : null;
  const previousEntries = node.entries.length > 0 ? new Map(node.entries.map((entry) => [entry.path, entry])) : null;
  const entries: WalkEntry[] = [];
  const children: DirectoryNode[] = [];
  const prefix = node.relative === '' ? '' : `${node.relative}/`;
  const parent = node.absolute === '/' ? '' : node.absolute;
  for (const dirent of dirents) {
    const name = dirent.name;
    if (name === '.git') continue;
    const kind = kindOf(dirent, parent);
    if (kind === null || (kind === 'directory' && name === 'node_modules')) continue;
    const relative = prefix + name;
    const previous = previousEntries?.get(relative);
    const entry = previous?.kind === kind ? previous : newWalkEntry(kind, relative, name, node.entry);
    entries.push(entry);
    if (kind === 'directory') children.push(previousChildren?.get(relative) ?? newNode(`${parent}/${name}`, relative, entry));
  }
  node.entries = entries;
  node.children = children;
}

/** Regular files and directories only: symlinks are skipped, FIFOs, sockets and devices never opened. */
function kindOf(dirent: Dirent, parent: string): WalkEntry['kind'] | null {
  if (dirent.isFile()) return 'file';
  if (dirent.isDirectory()) return 'directory';
  if (dirent.isSymbolicLink() || dirent.isFIFO() || dirent.isSocket()) return null;
  if (dirent.isBlockDevice() || dirent.isCharacterDevice()) return null;
  // DT_UNKNOWN (some network and FUSE file systems): ask lstat, which opens nothing.
  const stats = lstatSync(`${parent}/${dirent.name}`, { throwIfNoEntry: false });
  if (stats?.isFile()) return 'file';
  if (stats?.isDirectory()) return 'directory';
  return null;
}

/** Every listed entry of the tree below `top`. */
export function flatten(top: DirectoryNode): WalkEntry[] {
  const all: WalkEntry[] = [];
  const stack = [top];
  while (stack.length > 0) {
    const node = stack.pop()!;
    for (const entry of node.entries) all.push(entry);
    for (const child of node.children) stack.push(child);
  }
  return all;
}
