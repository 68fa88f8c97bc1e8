import { selectTop } from './selectTop';
import type { ListedDirectory, Listing, WalkEntry } from '../walk/walkEntry';

/**
 * The first `limit` entries of a listing in path order (UTF-16 code units, as `<` compares strings), entries
 * that are not ignored first: with no query every score is 0, and an ignored entry ranks after one that is not
 * of equal score (`WalkEntry.ignored`; the service's clone starts with `.data/` and `dist/` otherwise).
 * The first call on a root has no query and wants the first 100 of 130k paths; comparing a path built as
 * `directory + '/' + name` flattens it first, which measured ~90 ms for the benchmark tree. So when the
 * listing hands on its directories (or its entries have `parent` links), the order is read off the tree,
 * sorting only the directories it visits.
 *
 * Within one directory, an entry sorts by its name and everything below a subdirectory `d` sorts as one
 * block at `d/` (a name has no `/`, so `d` < `d-x` < `d.txt` < `d/…` as full paths do).
 */
export function firstByPath(listing: Listing, limit: number): WalkEntry[] {
  if (limit <= 0) return [];
  const entries = listing.entries;
  const tree = listing.tree ?? (entries.every((entry) => entry.parent !== undefined) ? treeOf(entries) : null);
  if (tree === null) return selectTop(entries, limit, (a, b) => isIgnored(a) - isIgnored(b) || comparePaths(a, b));
  const first: WalkEntry[] = [];
  // Two rounds in path order: what is not ignored, then (when that did not fill `limit`) what is. Nothing
  // below an ignored folder is kept in the first round.
  const visit = (directory: ListedDirectory, ignored: 0 | 1): void => {
    const items: Array<{ key: string; entry?: WalkEntry; below?: ListedDirectory }> = [
      ...directory.entries.map((entry) => ({ key: entry.name, entry })),
      ...directory.children.map((below) => ({ key: `${below.entry!.name}/`, below })),
    ];
    items.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    for (const item of items) {
      if (first.length >= limit) return;
      if (item.below !== undefined) {
        if (ignored === 1 || isIgnored(item.below.entry!) === 0) visit(item.below, ignored);
      } else if (isIgnored(item.entry!) === ignored) first.push(item.entry!);
    }
  };
  visit(tree, 0);
  if (first.length < limit) visit(tree, 1);
  return first;
}

function isIgnored(entry: WalkEntry): 0 | 1 {
  return entry.ignored === true ? 1 : 0;
}

export function comparePaths(a: WalkEntry, b: WalkEntry): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

interface Directory {
  entry: WalkEntry | null;
  entries: WalkEntry[];
  children: Directory[];
}

/** The directories of entries that have `parent` links (a filtered listing), with their ancestors. */
function treeOf(entries: readonly WalkEntry[]): Directory {
  const directories = new Map<WalkEntry | null, Directory>();
  const directoryOf = (entry: WalkEntry | null): Directory => {
    let directory = directories.get(entry);
    if (directory === undefined) {
      directory = { entry, entries: [], children: [] };
      directories.set(entry, directory);
      if (entry !== null) directoryOf(entry.parent!).children.push(directory);
    }
    return directory;
  };
  // A walk lists a directory's entries together: look the directory up once per run, not once per entry.
  let runParent: WalkEntry | null | undefined = undefined;
  let run: WalkEntry[] = [];
  for (const entry of entries) {
    if (entry.parent !== runParent) {
      runParent = entry.parent;
      run = directoryOf(entry.parent!).entries;
    }
    run.push(entry);
  }
  return directoryOf(null);
}
