import { promises as fs } from 'node:fs';
import { readRefNow } from '../gitFiles/headFiles';
import { changedPaths, readIndex, type IndexEntry } from '../gitFiles/indexFile';
import { readLooseCommits } from '../gitFiles/looseCommit';
import { runGit } from '../runGit';
import type { Head } from './headOf';

/** A commit and the paths it changed from its parent: the `git/committed` row's `sha` and `files`. */
export interface CommitFiles {
  sha: string;
  files: string[];
}

/**
 * The commit `git commit` just made on `head.ref` and the paths it changed, read from the files git left
 * instead of a `git diff-tree` (a process: 20–30 ms of bench:ship's budget). The index the commit was staged
 * in (`staged`) is the commit's tree entry by entry; the user's index it was copied from is the parent's tree
 * when its cache-tree root says so (parentSide). Their difference is then exactly diff-tree's list, in its
 * order. Answers only when every link is checked: the ref names a loose commit whose tree is `staged`'s and
 * whose one parent is `head.commit`, that commit's tree is the user's index's; otherwise git is asked.
 */
export async function commitJustMade(cwd: string, head: Head, parent: IndexEntry[] | null, staged: string): Promise<CommitFiles> {
  return (await commitFromIndexes(head, parent, staged)) ?? committedFiles(cwd, head.ref);
}

/**
 * The parent's side of that comparison, read while `git add` runs (the daemon only waits on git then): the
 * index the commit starts from, parsed, when its cache-tree root is the tree of the commit HEAD is at. Null
 * when it is not (something staged since), or cannot be told (the commit packed). Synchronous, as the
 * readers of gitFiles/ are (headFiles.ts says why).
 */
export function parentSide(head: Head, before: Buffer | null): IndexEntry[] | null {
  try {
    const index = before && readIndex(before, head.commit.length / 2);
    if (!index?.rootTree) return null;
    const [parent] = readLooseCommits(head.commonDir, [head.commit]);
    return parent?.tree === index.rootTree ? index.entries : null;
  } catch {
    return null; // an index git wrote that this reader does not follow: git answers
  }
}

/** The fast path alone: null whenever a link cannot be checked from the files (then diff-tree answers). */
export async function commitFromIndexes(head: Head, parent: IndexEntry[] | null, staged: string): Promise<CommitFiles | null> {
  if (!parent) return null;
  const after = await fs.readFile(staged).catch(() => null);
  const sha = readRefNow(head, head.ref);
  const index = after && readIndex(after, head.commit.length / 2);
  if (!sha || !index?.rootTree) return null;
  const [commit] = readLooseCommits(head.commonDir, [sha]);
  if (commit?.tree !== index.rootTree || commit.parents.length !== 1 || commit.parents[0] !== head.commit) return null;
  return { sha, files: changedPaths(parent, index.entries) };
}

/** The commit a ref is at and the paths it changed from its parent, in one call (diff-tree names the commit first). */
export async function committedFiles(cwd: string, ref: string): Promise<CommitFiles> {
  const { stdout } = await runGit(['diff-tree', '-r', '--name-only', '-z', '--no-renames', ref], { cwd });
  const [sha = '', ...files] = stdout.split('\0').filter(Boolean);
  return { sha: sha.trim(), files };
}
