import { statSync, type Stats } from 'node:fs';
import type { DirectoryStamp } from './directoryFacts';
import type { DirectoryNode } from './directoryNode';

/* A directory's stamp (inode, mtime, ctime) and when it still vouches for what was read (`treeSnapshot.ts`). */

/** The root may be a symlink to a workspace, so it is followed; nothing below it is. */
export function statSyncOf(root: string): Stats | undefined {
  try {
    return statSync(root, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

export function stampOf(stats: Stats | undefined): DirectoryStamp | null {
  return stats?.isDirectory() ? { ino: stats.ino, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs } : null;
}

export function isUnchanged(node: DirectoryNode, now: DirectoryStamp, racyWindowMs: number): boolean {
  const stamp = node.stamp;
  if (stamp === null) return false;
  // Editing a `.gitignore` in place (`echo dist/ >> .gitignore`) leaves its folder's stamps as they were, so a
  // folder holding one is read again, with the file, on every revalidation by stamps (a few folders per tree).
  // A watch names the file when it changes, which reads its folder again too (`revalidationStart.ts`).
  if (node.gitignore !== null || node.gitExclude !== null) return false;
  // Inode and ctime catch a directory replaced by one whose mtime is old (`mv` of an old folder, tar).
  if (stamp.ino !== now.ino || stamp.mtimeMs !== now.mtimeMs || stamp.ctimeMs !== now.ctimeMs) return false;
  // git's racy-timestamp rule: a change in the same tick as our read would leave the stamp unchanged.
  // Stamps are taken after the read, so a change in between is in the stamp; it is caught because it
  // moved the ctime past the read. The ctime, not only the mtime: tar and rsync put mtimes back, and
  // nothing can put a ctime back.
  return Math.max(now.mtimeMs, now.ctimeMs) < node.readAt - racyWindowMs;
}
