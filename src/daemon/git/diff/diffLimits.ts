/**
 * Caps of one `git.diff` answer (docs/worktrees.md "Diff"): past them files are summarized, not sent, so a
 * generated file or a vendored folder never makes an answer the page cannot show. A file over
 * `bigFileBytes` is what git calls big (`core.bigFileThreshold`): git itself reports it binary, unread.
 */
export const DIFF_LIMITS = {
  /** Files listed in one answer; the rest are left out (`truncated: true`). */
  maxFiles: 3_000,
  /** Hunk lines of one file; a file over it keeps its counts and loses its hunks (`file.truncated`). */
  maxLinesPerFile: 10_000,
  /** Hunk lines of the whole answer; files past it keep their counts and lose their hunks. */
  maxLines: 200_000,
  bigFileBytes: 4 * 1024 * 1024,
} as const;
export type DiffLimits = { [K in keyof typeof DIFF_LIMITS]: number };
