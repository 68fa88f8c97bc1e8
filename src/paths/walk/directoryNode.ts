import { KIND_DIRECTORY, KIND_FILE, type DirectoryContents, type DirectoryStamp } from './directoryFacts';
import type { IgnoreChain, IgnoreFile } from './ignoreRules';
import { newWalkEntry, type WalkEntry } from './walkEntry';

/** One walked directory of a cached tree: what its last read found, and when. */
export interface DirectoryNode {
  readonly absolute: string;
  /** Relative path of the directory; '' for the root. */
  readonly relative: string;
  /** The directory's own listed entry; null for the root. */
  readonly entry: WalkEntry | null;
  /** The directory holding it; null for the root. */
  readonly parent: DirectoryNode | null;
  stamp: DirectoryStamp | null;
  /** The time (`Date.now()`, or the snapshot's clock) just before the last read of this directory. */
  readAt: number;
  /** Listed direct entries (rules 1–3). */
  entries: WalkEntry[];
  /** Listed direct subdirectories, walked in turn. */
  children: DirectoryNode[];
  /** Names of the `.git` and `node_modules` directories in it (never listed): a watch leaves them out. */
  excluded: readonly string[] | null;
  /** The `.gitignore` and `.git/info/exclude` texts its last read found (`directoryReader.ts`). */
  gitignore: string | null;
  gitExclude: string | null;
  /** Its `.gitignore` as compiled, and the chain its entries were last marked with (`ignoredEntries.ts`). */
  ignoreFile: IgnoreFile | null;
  excludeFile: IgnoreFile | null;
  ignoreChain: IgnoreChain | null | undefined;
}

export function newNode(absolute: string, relative: string, entry: WalkEntry | null, parent: DirectoryNode | null): DirectoryNode {
  return {
    absolute,
    relative,
    entry,
    parent,
    stamp: null,
    readAt: 0,
    entries: [],
    children: [],
    excluded: null,
    gitignore: null,
    gitExclude: null,
    ignoreFile: null,
    excludeFile: null,
    ignoreChain: undefined,
  };
}

/**
 * Rules 1–3 for one directory's entries (null: the directory could not be read, so it lists nothing).
 * Only regular files and directories are listed: the reader already told symlinks, FIFOs, sockets and
 * devices apart without opening them. On a re-read, subdirectories that are still there keep their node
 * (and subtree, revalidated on its own) and entries keep their object (and folded names). Returns whether
 * the listed entries changed: a read that found what was there (a file's content written, a racy re-read)
 * keeps the node's arrays, so the tree's flat listing and its name index stay valid.
 */
export function applyContents(node: DirectoryNode, contents: DirectoryContents | null): boolean {
  const previousChildren = node.children.length > 0 ? new Map(node.children.map((child) => [child.relative, child])) : null;
  const previousEntries = node.entries.length > 0 ? new Map(node.entries.map((entry) => [entry.path, entry])) : null;
  const entries: WalkEntry[] = [];
  const children: DirectoryNode[] = [];
  const prefix = node.relative === '' ? '' : `${node.relative}/`;
  const parent = node.absolute === '/' ? '' : node.absolute;
  const names = contents?.names ?? [];
  const kinds = contents?.kinds ?? '';
  let excluded: string[] | null = null;
  for (let index = 0; index < names.length; index += 1) {
    const name = names[index]!;
    const code = kinds[index];
    const kind = code === KIND_FILE ? 'file' : code === KIND_DIRECTORY ? 'directory' : null;
    if (name === '.git' || (kind === 'directory' && name === 'node_modules')) {
      if (kind === 'directory') (excluded ??= []).push(name);
      continue;
    }
    if (kind === null) continue;
    const relative = prefix + name;
    const previous = previousEntries?.get(relative);
    const entry = previous?.kind === kind ? previous : newWalkEntry(kind, relative, name, node.entry);
    entries.push(entry);
    if (kind === 'directory') children.push(previousChildren?.get(relative) ?? newNode(`${parent}/${name}`, relative, entry, node));
  }
  node.excluded = excluded;
  node.gitignore = contents?.gitignore ?? null;
  node.gitExclude = contents?.gitExclude ?? null;
  if (sameItems(entries, node.entries) && sameItems(children, node.children)) return false;
  node.entries = entries;
  node.children = children;
  return true;
}

function sameItems<T>(next: readonly T[], previous: readonly T[]): boolean {
  if (next.length !== previous.length) return false;
  for (let index = 0; index < next.length; index += 1) if (next[index] !== previous[index]) return false;
  return true;
}

/** Absolute paths of the `.git` and `node_modules` directories the walk of `top` skipped. */
export function excludedDirectories(top: DirectoryNode): string[] {
  const all: string[] = [];
  const stack = [top];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.excluded !== null) for (const name of node.excluded) all.push(node.absolute === '/' ? `/${name}` : `${node.absolute}/${name}`);
    for (const child of node.children) stack.push(child);
  }
  return all;
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
