/**
 * Every default and cap of `host.list_paths` / `host.list_files`, in one place (spec part 8 leaves them open).
 * Requests outside these bounds are refused with `invalid_params`, never clamped silently.
 */
export const PATH_LISTING_CONFIG = {
  /** Entries returned when a request names no `limit`: a quick-open list shows far fewer. */
  defaultLimit: 100,
  /** Largest accepted `limit`; a bigger answer is a download, not a search result. */
  maxLimit: 10_000,
  /** `includeFiles` when absent. */
  defaultIncludeFiles: true,
  /** `includeDirectories` when absent: rule 6 wants `workflows` to find the `.github/workflows` directory. */
  defaultIncludeDirectories: true,
  /** Longest accepted `query`, in UTF-16 units: longer than any file name (255 bytes on common file systems). */
  maxQueryLength: 256,
  /** Roots whose walked tree stays cached for fast keystroke searches (least recently used is dropped). */
  maxCachedRoots: 8,
  /**
   * git's racy-timestamp rule: a directory whose mtime is this close to the moment it was read may have
   * changed again within the same timestamp tick, so it is re-read on the next call. 2 s covers the
   * coarsest common file-system granularity (FAT) and the kernel's coarse clock lagging `Date.now()`.
   */
  racyWindowMs: 2_000,
} as const;
