/**
 * The review loop's wire shapes (issue 38) as the page reads them: `GET /threads/:id/diff` and the review
 * comments. Written from the API until the server's OpenAPI document holds these routes; the fields
 * match src/protocol/hostGitCommands.ts (GitDiffResultSchema), which the page may not import.
 */
export type DiffScope = 'uncommitted' | 'branch' | 'turn';
export type DiffLineKind = 'context' | 'add' | 'del';

export interface DiffLine {
  kind: DiffLineKind;
  text: string;
}

export interface DiffHunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: DiffLine[];
}

export interface DiffFile {
  path: string;
  oldPath?: string;
  status: 'added' | 'modified' | 'deleted' | 'renamed';
  binary: boolean;
  additions: number;
  deletions: number;
  truncated?: boolean;
  hunks: DiffHunk[];
}

export interface GitDiff {
  scope: DiffScope;
  base: string;
  head: string;
  turnId?: string;
  files: DiffFile[];
  truncated: boolean;
}

export type CommentSide = 'new' | 'old';
export type ReviewCommentState = 'draft' | 'stale' | 'sent';

export interface ReviewComment {
  id: string;
  path: string;
  line: number;
  side: CommentSide;
  text: string;
  snippet: string;
  state: ReviewCommentState;
}

/** What a new comment names: the line (on the new or the old side of the diff) and the scope it was read in. */
export interface CommentTarget {
  path: string;
  line: number;
  side: CommentSide;
  scope: DiffScope;
}

/** A thread's own folder (issue 38): the project's checkout, or a worktree of its own. */
export interface ThreadWorkspace {
  kind: 'checkout' | 'worktree';
  path?: string;
  branch?: string | null;
  baseRef?: string;
  baseCommit?: string;
  state?: 'creating' | 'ready' | 'removed' | 'failed';
}
