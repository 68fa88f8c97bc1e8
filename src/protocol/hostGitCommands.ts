import { z } from 'zod';
import { hostPath } from './hostFiles';
import { PartialResultTokenSchema } from './partialResults';

/**
 * Git commands of the host-daemon contract (issue 38, the review loop): a thread's own worktree, its diff and
 * the trees recorded at each turn's edges. Git runs on the host with the real `git` CLI; the server only names
 * the thread, its project's checkout and what it wants. Every worktree the daemon makes lives under
 * `<daemon data dir>/worktrees/<projectId>/<threadId>`, so one it did not make is never touched.
 */
const ThreadId = z.string().regex(/^thr_/, 'a thread id starts with thr_');
const ProjectId = z.string().regex(/^proj_/, 'a project id starts with proj_');

export const WorkspaceKindSchema = z.enum(['checkout', 'worktree']);
export type WorkspaceKind = z.infer<typeof WorkspaceKindSchema>;
export const WorkspaceStateSchema = z.enum(['creating', 'ready', 'removed', 'failed']);
export type WorkspaceState = z.infer<typeof WorkspaceStateSchema>;

/** `git.worktree_create`: idempotent per thread; a half-made worktree (no completion marker) is made anew. */
export const WorktreeCreateParamsSchema = z.strictObject({
  threadId: ThreadId,
  projectId: ProjectId,
  /** The project's own checkout (absolute). */
  checkout: hostPath,
  /** Default: the checkout's current `HEAD`. */
  baseRef: z.string().min(1).optional(),
  /** The new branch, or null for a detached worktree. Checked with `git check-ref-format` on the host. */
  branch: z.string().min(1).nullable(),
  /** Run in the new worktree with `ATS_WORKTREE_PATH` and `ATS_SOURCE_TREE_PATH`; its output is answered. */
  setupScript: z.string().min(1).optional(),
});
export type WorktreeCreateParams = z.infer<typeof WorktreeCreateParamsSchema>;
export const SetupRunSchema = z.strictObject({ exitCode: z.number().int(), output: z.string(), truncated: z.boolean() });
export type SetupRun = z.infer<typeof SetupRunSchema>;
export const WorktreeCreateResultSchema = z.strictObject({
  path: z.string(),
  branch: z.string().nullable(),
  baseRef: z.string(),
  baseCommit: z.string(),
  /** Null without a setup script. A non-zero exit leaves the worktree ready; the server reports the failure. */
  setup: SetupRunSchema.nullable(),
});
export type WorktreeCreateResult = z.infer<typeof WorktreeCreateResultSchema>;

/**
 * `git.worktree_remove`: archive (`keepSnapshot: true`: a dirty worktree's whole state, untracked files
 * included, is stored under `refs/ats/snapshots/<threadId>` first) or delete (`keepSnapshot: false`: the
 * snapshot and turn refs go too; the branch goes only with `deleteBranch`). Idempotent.
 */
export const WorktreeRemoveParamsSchema = z.strictObject({
  threadId: ThreadId,
  projectId: ProjectId,
  checkout: hostPath,
  keepSnapshot: z.boolean(),
  deleteBranch: z.boolean().optional(),
  branch: z.string().min(1).nullable().optional(),
});
export const WorktreeRemoveResultSchema = z.strictObject({ snapshotRef: z.string().nullable() });

/** `git.worktree_restore`: brings a removed worktree back, every file as it was (from its snapshot when dirty). */
export const WorktreeRestoreParamsSchema = z.strictObject({
  threadId: ThreadId,
  projectId: ProjectId,
  checkout: hostPath,
  branch: z.string().min(1).nullable(),
  baseCommit: z.string().min(1),
});
export const WorktreeRestoreResultSchema = z.strictObject({ path: z.string(), fromSnapshot: z.boolean() });

export const DiffScopeSchema = z.enum(['uncommitted', 'branch', 'turn']);
export type DiffScope = z.infer<typeof DiffScopeSchema>;

/** The most files a `maxFiles` diff may ask for: a screenful or a few, each one a pathspec of git's argv. */
export const DIFF_MAX_FILES_ASKED = 500;

/** `git.diff`: the thread's folder (worktree or checkout) in one of three scopes. */
export const GitDiffParamsSchema = z.strictObject({
  threadId: ThreadId,
  /** The thread's folder: its worktree, or the checkout for a checkout thread. */
  path: hostPath,
  scope: DiffScopeSchema,
  /** `branch`: the merge-base with this ref is the base. */
  baseRef: z.string().min(1).optional(),
  /** `turn`: which turn (default the last one recorded). */
  turnId: z.string().min(1).optional(),
  /**
   * Only the first files in path order (a page's first screen): git lists what changed, then reads only
   * those files' patches. `truncated` says whether more files changed.
   */
  maxFiles: z.number().int().min(1).max(DIFF_MAX_FILES_ASKED).optional(),
  /**
   * Answer in parts (partialResults.ts): files go out in `GitDiffPart`s, in order, while git still runs, and
   * the result holds the files no part carried. A diff whose order is only known at its end answers whole.
   */
  partialResultToken: PartialResultTokenSchema.optional(),
});
export type GitDiffParams = z.infer<typeof GitDiffParamsSchema>;

export const DiffLineSchema = z.strictObject({ kind: z.enum(['context', 'add', 'del']), text: z.string() });
export const DiffHunkSchema = z.strictObject({
  oldStart: z.number().int(),
  oldLines: z.number().int(),
  newStart: z.number().int(),
  newLines: z.number().int(),
  lines: z.array(DiffLineSchema),
});
export type DiffHunk = z.infer<typeof DiffHunkSchema>;
export const DiffFileSchema = z.strictObject({
  path: z.string(),
  oldPath: z.string().optional(),
  status: z.enum(['added', 'modified', 'deleted', 'renamed']),
  binary: z.boolean(),
  additions: z.number().int(),
  deletions: z.number().int(),
  hunks: z.array(DiffHunkSchema),
  /** True when the file's hunks were left out (over the size cap); its counts still hold. */
  truncated: z.boolean().optional(),
});
export type DiffFile = z.infer<typeof DiffFileSchema>;
export const GitDiffResultSchema = z.strictObject({
  scope: DiffScopeSchema,
  /** The commit or tree the diff starts from, and what it ends at (`worktree` for the files on disk). */
  base: z.string(),
  head: z.string(),
  /** `turn`: the turn the diff is of. */
  turnId: z.string().optional(),
  files: z.array(DiffFileSchema),
  /** True when files or hunks were left out to keep the answer within its caps. */
  truncated: z.boolean(),
});
export type GitDiffResult = z.infer<typeof GitDiffResultSchema>;
/** Files of a diff answered in parts; together with the result's own files, the whole answer in order. */
export const GitDiffPartSchema = z.strictObject({ files: z.array(DiffFileSchema).min(1) });
export type GitDiffPart = z.infer<typeof GitDiffPartSchema>;

/**
 * `git.prune_worktrees`: sent by the server once a host is attached, naming the threads that still exist with
 * a worktree there; the daemon removes its own worktrees of any other thread (and half-made ones) and runs
 * `git worktree prune`. A worktree or branch it did not create is never touched.
 */
export const PruneWorktreesParamsSchema = z.strictObject({ liveThreadIds: z.array(ThreadId) });
export const PruneWorktreesResultSchema = z.strictObject({ removed: z.array(z.string()) });

export const hostGitCommands = {
  'git.worktree_create': { params: WorktreeCreateParamsSchema, result: WorktreeCreateResultSchema },
  'git.worktree_remove': { params: WorktreeRemoveParamsSchema, result: WorktreeRemoveResultSchema },
  'git.worktree_restore': { params: WorktreeRestoreParamsSchema, result: WorktreeRestoreResultSchema },
  'git.diff': { params: GitDiffParamsSchema, result: GitDiffResultSchema, partial: GitDiffPartSchema },
  'git.prune_worktrees': { params: PruneWorktreesParamsSchema, result: PruneWorktreesResultSchema },
} as const;
