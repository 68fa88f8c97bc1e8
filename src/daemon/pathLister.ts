import { resolve } from 'node:path';
import { lastValueFrom, tap } from 'rxjs';
import { searchPaths$, type PathSearch } from '../../pipelines/path-search';
import { HostCommandError } from '../protocol/hostErrors';
import { type ListFilesRequest, type ListFilesResult, type ListPathsRequest, type ListPathsResult } from '../protocol/hostFiles';
import { createCachedWalks, type CachedWalksOptions } from '../paths/cache/cachedWalks';
import type { ServedBy } from '../paths/cache/liveTree';
import { PATH_LISTING_CONFIG } from '../protocol/hostFiles';
import { walk$ } from '../paths/walk/walk';

export interface PathListerOptions extends CachedWalksOptions {
  /** Keep walked trees between calls (default). `false` walks the whole tree on every call, like the spec. */
  cache?: boolean;
}

/**
 * `host.list_paths` and `host.list_files`; stateful because it caches each root's walked tree, kept current by
 * a file watcher while the root is searched (`src/paths/cache/liveTree.ts`). Requests come checked against the
 * contract (the daemon's dispatcher; the paths CLI at its command line): only what the schema cannot say is
 * checked here.
 */
export interface PathLister {
  listPaths(request: ListPathsRequest): Promise<ListPathsResult>;
  listFiles(request: ListFilesRequest): Promise<ListFilesResult>;
  /** Directory reads done for `root` (0 without cache), so callers can see the cache at work. */
  directoriesRead(root: string): number;
  /** How the last call on `root` was answered: from its watched listing, or by revalidating stamps. */
  servedBy(root: string): ServedBy | null;
  /** Ends the watches of the cached roots (a daemon's close). */
  close(): Promise<void>;
}

export function createPathLister(options: PathListerOptions = {}): PathLister {
  const cached = options.cache === false ? null : createCachedWalks(options);
  const listingOf = (root: string) => (cached === null ? walk$(root, options) : cached.walk$(root));

  const run = async (root: string, search: PathSearch): Promise<ListPathsResult> => {
    const debug = options.debug;
    if (debug === undefined) return lastValueFrom(searchPaths$(listingOf(resolve(root)), search));
    // The debug log says how long the ranking took once the listing was there (a slow keystroke: ranking or waiting?).
    let listedAt = 0;
    const listing$ = listingOf(resolve(root)).pipe(tap(() => (listedAt = performance.now())));
    const result = await lastValueFrom(searchPaths$(listing$, search));
    debug(`paths: ${resolve(root)} ranked in ${(performance.now() - listedAt).toFixed(1)} ms`);
    return result;
  };

  return {
    async listPaths(request) {
      const includeFiles = request.includeFiles ?? PATH_LISTING_CONFIG.defaultIncludeFiles;
      const includeDirectories = request.includeDirectories ?? PATH_LISTING_CONFIG.defaultIncludeDirectories;
      if (!includeFiles && !includeDirectories) {
        throw new HostCommandError(
          'invalid_params',
          'host.list_paths: includeFiles and includeDirectories are both false, so nothing could be listed',
        );
      }
      const limit = request.limit ?? PATH_LISTING_CONFIG.defaultLimit;
      return run(request.path, { query: request.query, limit, includeFiles, includeDirectories });
    },
    async listFiles(request) {
      const limit = request.limit ?? PATH_LISTING_CONFIG.defaultLimit;
      const result = await run(request.path, { query: request.query, limit, includeFiles: true, includeDirectories: false });
      return { files: result.paths, truncated: result.truncated };
    },
    directoriesRead: (root) => cached?.directoriesRead(resolve(root)) ?? 0,
    servedBy: (root) => cached?.servedBy(resolve(root)) ?? null,
    close: async () => cached?.close(),
  };
}
