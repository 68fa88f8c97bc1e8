import type { PathKind } from '../../protocol/hostFiles';

/** One listed file or directory of a walk (rules 1–3), before ranking. */
export interface WalkEntry {
  readonly kind: PathKind;
  /** Relative to the root, `/`-separated. */
  readonly path: string;
  readonly name: string;
  /**
   * The entry of the directory holding this one: null directly under the root; absent when the entry
   * was made without its tree (tests). Lets a path query test a directory's path once for all below it.
   */
  readonly parent?: WalkEntry | null;
  /**
   * Folded units of this entry's path (the scorer's `FoldedUnits`, `score/foldedUnits.ts`), built for a directory the first time a path
   * query needs it (positions of a returned row below it; a listing without its directories); paths of
   * an entry never change, so it stays valid.
   */
  pathUnits?: { readonly units: Uint16Array; readonly bonus: Int8Array };
  /**
   * Path-query prefilter memo of a directory (`pathPrefilter.ts`): how many units of `prefixQuery` match
   * greedily through this directory's path. Valid for any later search with the same query.
   */
  prefixQuery?: string;
  prefixMatched?: number;
  /**
   * This entry's slot in the last name index built over a listing that holds it (`score/nameIndex.ts`). After
   * a change the next index copies the entry's folded name from there instead of folding it again; the slot
   * is checked against that listing before it is trusted, so a stale one costs a fold, never a wrong name.
   */
  indexSlot?: number;
  /**
   * Matched by the project's `.gitignore` files (or `.git/info/exclude`), or inside the service's own data
   * folder: still listed and findable (rules 1–3, 6), ranked after what is not (`ignoredEntries.ts`).
   * Absent (entries made without a walk) means not ignored.
   */
  ignored?: boolean;
}

/**
 * A walked entry. Directories get the path-query fields from the start, so all directories share one
 * object shape (and files another) and the ranker's property reads stay fast; files, four in five
 * entries, stay small: the first call on a root allocates one per entry.
 */
export function newWalkEntry(kind: PathKind, path: string, name: string, parent: WalkEntry | null): WalkEntry {
  if (kind === 'file') return { kind, path, name, parent, indexSlot: -1, ignored: false };
  return { kind, path, name, parent, indexSlot: -1, ignored: false, pathUnits: undefined, prefixQuery: '', prefixMatched: 0 };
}

/** Everything a walk found under `root`; order is unspecified (ranking defines it). */
export interface Listing {
  readonly root: string;
  readonly entries: readonly WalkEntry[];
  /**
   * The directories `entries` were read from, when the walk hands them on (a filtered listing does not).
   * A cached walk updates them in place on its next refresh, so rank a listing when it arrives, as the
   * path-search pipeline does (refreshes of one root wait for the previous call's work).
   */
  readonly tree?: ListedDirectory;
}

/** One walked directory: its listed entries and its listed subdirectories. */
export interface ListedDirectory {
  /** The directory's own entry; null for the root. */
  readonly entry: WalkEntry | null;
  readonly entries: readonly WalkEntry[];
  readonly children: readonly ListedDirectory[];
}
