import { z } from 'zod';

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
} as const;

/** Host file commands (spec 2.7, 2.8 and part 4): request and result shapes. Defaults: PATH_LISTING_CONFIG. */

/**
 * Longest path a host file command takes, in UTF-8 bytes: Linux's PATH_MAX (4096) less its NUL. A longer
 * one cannot name a file, so it is refused as `invalid_params` before any system call (which would fail
 * with ENAMETOOLONG deep inside a handler).
 */
export const MAX_PATH_BYTES = 4095;
/** Longest name of one path segment, in UTF-8 bytes: NAME_MAX of ext4, APFS, NTFS and most others. */
export const MAX_NAME_BYTES = 255;

/** Why `value` is too long to be a path on a host, or undefined when it is not. */
export function pathTooLong(value: string): string | undefined {
  if (Buffer.byteLength(value) > MAX_PATH_BYTES) return `is longer than ${MAX_PATH_BYTES} bytes`;
  const longName = value.split('/').find((name) => Buffer.byteLength(name) > MAX_NAME_BYTES);
  if (longName !== undefined) return `has a name longer than ${MAX_NAME_BYTES} bytes (${longName.slice(0, 32)}…)`;
  return undefined;
}

/** A path as host file commands take it: not empty, within MAX_PATH_BYTES and MAX_NAME_BYTES. */
export const hostPath = z
  .string()
  .min(1)
  .check((ctx) => {
    const reason = pathTooLong(ctx.value);
    if (reason) ctx.issues.push({ code: 'custom', message: `the path ${reason}`, input: ctx.value });
  });

const absolutePath = hostPath.refine((value) => value.startsWith('/'), 'must be an absolute path');

/** `host.list_paths`; `type` is tolerated because the daemon command carries it (spec part 4). */
export const ListPathsRequestSchema = z.strictObject({
  type: z.literal('host.list_paths').optional(),
  path: absolutePath,
  query: z.string().max(PATH_LISTING_CONFIG.maxQueryLength).optional(),
  limit: z.number().int().min(1).max(PATH_LISTING_CONFIG.maxLimit).optional(),
  includeFiles: z.boolean().optional(),
  includeDirectories: z.boolean().optional(),
});
export type ListPathsRequest = z.infer<typeof ListPathsRequestSchema>;

export const PathKindSchema = z.enum(['file', 'directory']);
export type PathKind = z.infer<typeof PathKindSchema>;

/** Spec 2.7: `positions` are UTF-16 indexes into `name`, ascending. */
export const PathEntrySchema = z.strictObject({
  kind: PathKindSchema,
  path: z.string(),
  name: z.string(),
  score: z.number(),
  positions: z.array(z.number().int().nonnegative()),
});
export type PathEntry = z.infer<typeof PathEntrySchema>;

export const ListPathsResultSchema = z.strictObject({
  paths: z.array(PathEntrySchema),
  truncated: z.boolean(),
});
export type ListPathsResult = z.infer<typeof ListPathsResultSchema>;

/** `host.list_files`: the same walk and ranking as `host.list_paths`, files only. */
export const ListFilesRequestSchema = z.strictObject({
  type: z.literal('host.list_files').optional(),
  path: absolutePath,
  query: z.string().max(PATH_LISTING_CONFIG.maxQueryLength).optional(),
  limit: z.number().int().min(1).max(PATH_LISTING_CONFIG.maxLimit).optional(),
});
export type ListFilesRequest = z.infer<typeof ListFilesRequestSchema>;

export const ListFilesResultSchema = z.strictObject({
  files: z.array(PathEntrySchema),
  truncated: z.boolean(),
});
export type ListFilesResult = z.infer<typeof ListFilesResultSchema>;

export const ReadFileRequestSchema = z.strictObject({
  type: z.literal('host.read_file').optional(),
  path: absolutePath,
  /**
   * The registered folder the server found `path` in (its root guard), `path` being the real path
   * `host.resolve_path` answered. The host then reads only a file whose opened descriptor lies inside that
   * folder's real path, else `forbidden`, and does not follow a last name that became a link (`not_found`):
   * a symlink swapped in after the server's check is never followed (issue 30).
   */
  root: absolutePath.optional(),
});
export type ReadFileRequest = z.infer<typeof ReadFileRequestSchema>;

/**
 * Spec 2.8 plus `encoding`: text that is valid UTF-8 (and has no NUL byte) is sent as is (`utf8`);
 * anything else is base64 of the exact bytes. `sha256` is the hex digest of the bytes, not of `content`.
 */
export const ReadFileResultSchema = z.strictObject({
  content: z.string(),
  encoding: z.enum(['utf8', 'base64']),
  sizeBytes: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type ReadFileResult = z.infer<typeof ReadFileResultSchema>;

export const BrowseDirectoryRequestSchema = z.strictObject({
  type: z.literal('host.browse_directory').optional(),
  path: absolutePath,
});
export type BrowseDirectoryRequest = z.infer<typeof BrowseDirectoryRequestSchema>;

/** One level of a folder picker; `path` is absolute so the picker can descend. */
export const BrowseEntrySchema = z.strictObject({
  kind: PathKindSchema,
  name: z.string(),
  path: z.string(),
});
export type BrowseEntry = z.infer<typeof BrowseEntrySchema>;

export const BrowseDirectoryResultSchema = z.strictObject({
  path: z.string(),
  entries: z.array(BrowseEntrySchema),
});
export type BrowseDirectoryResult = z.infer<typeof BrowseDirectoryResultSchema>;

export const ReadFileRelativeRequestSchema = z.strictObject({
  type: z.literal('host.read_file_relative').optional(),
  rootPath: absolutePath,
  path: hostPath,
  dotfiles: z.enum(['allow', 'deny']),
});
export type ReadFileRelativeRequest = z.infer<typeof ReadFileRelativeRequestSchema>;
