import type { Observable } from 'rxjs';
import type { ListPathsResult } from '../src/protocol/hostFiles';
import { keepKinds } from '../src/paths/rank/keepKinds';
import { rankByQuery } from '../src/paths/rank/rankByQuery';
import { truncateTo } from '../src/paths/rank/truncateTo';
import type { Listing } from '../src/paths/walk/walkEntry';

/** A validated `host.list_paths` request with its defaults applied. */
export interface PathSearch {
  query?: string;
  limit: number;
  includeFiles: boolean;
  includeDirectories: boolean;
}

/**
 * `host.list_paths` as stages (spec rules 1–5): the complete walk, then the kinds asked for, then ranking
 * over everything found, then truncation to `limit`. The walk is injected (`walk$(root)` or a cached one),
 * so this file never touches the file system.
 */
export function searchPaths$(listing$: Observable<Listing>, search: PathSearch): Observable<ListPathsResult> {
  return listing$.pipe(
    keepKinds({ includeFiles: search.includeFiles, includeDirectories: search.includeDirectories }),
    rankByQuery(search.query),
    truncateTo(search.limit),
  );
}
