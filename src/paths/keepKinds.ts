import { map, type OperatorFunction } from 'rxjs';
import type { Listing } from './walkEntry';

export interface KindFilter {
  includeFiles: boolean;
  includeDirectories: boolean;
}

/**
 * Drops the kinds a request did not ask for, before ranking, so `limit` counts only wanted entries.
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
    const entries = listing.entries.filter((entry) =>
      entry.kind === 'file' ? filter.includeFiles : filter.includeDirectories,
    );
    return { root: listing.root, entries };
  });
}
