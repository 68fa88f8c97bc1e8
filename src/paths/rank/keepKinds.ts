import { map, type OperatorFunction } from 'rxjs';
import type { Listing, WalkEntry } from '../walk/walkEntry';

export interface KindFilter {
  includeFiles: boolean;
  includeDirectories: boolean;
}

/**
 * Drops the kinds a request did not ask for, before ranking, so `limit` counts only wanted entries.
 * The same listing filtered the same way gives the same array, so the ranker's cached `NameIndex` of
 * it is reused from keystroke to keystroke.
 *
 * ```
 * listing:  --L--|        (file a, directory b)
 * keepKinds({ includeFiles: true, includeDirectories: false })
 * result:   --L'-|        (file a)
 * ```
 */
export function keepKinds(filter: KindFilter): OperatorFunction<Listing, Listing> {
  return map((listing) => {
    if (filter.includeFiles && filter.includeDirectories) return listing;
    if (!filter.includeFiles && !filter.includeDirectories) return { root: listing.root, entries: [] };
    const kind = filter.includeFiles ? 'file' : 'directory';
    return { root: listing.root, entries: entriesOfKind(listing.entries, kind) };
  });
}

const filtered = new WeakMap<readonly WalkEntry[], Partial<Record<WalkEntry['kind'], WalkEntry[]>>>();

function entriesOfKind(entries: readonly WalkEntry[], kind: WalkEntry['kind']): WalkEntry[] {
  let byKind = filtered.get(entries);
  if (byKind === undefined) filtered.set(entries, (byKind = {}));
  return (byKind[kind] ??= entries.filter((entry) => entry.kind === kind));
}
