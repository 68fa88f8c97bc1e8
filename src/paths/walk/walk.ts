import { defer, type Observable } from 'rxjs';
import { createTreeSnapshot, type TreeSnapshotOptions } from './treeSnapshot';
import type { Listing } from './walkEntry';

/**
 * A fresh walk of `root`: emits one Listing with every regular file and directory below it (rules 1–3)
 * once the whole tree has been read (rule 5), then completes. Errors with HostCommandError when the root
 * is missing or not a directory. Entries carry their `ignored` marks (`ignoredEntries.ts`).
 *
 * ```
 * walk$('/repo'):  ------L|
 * ```
 */
export function walk$(root: string, options: Pick<TreeSnapshotOptions, 'ignoredDirectories'> = {}): Observable<Listing> {
  return defer(() => createTreeSnapshot(root, { ...options, keepStamps: false }).refresh());
}
