/**
 * How long the server waits for the host's worktree commands, beyond the ordinary `hostCommandTimeoutMs`:
 * checking out a large repository takes seconds, and a create runs the project's setup script, which the host
 * lets run 15 minutes (`src/daemon/git/worktrees/runSetup.ts`) before it kills it.
 */
export const WORKTREE_CREATE_TIMEOUT_MS = 20 * 60_000;

/** Remove (with its snapshot), restore and prune: git work on the whole worktree, never a script. */
export const WORKTREE_TIMEOUT_MS = 5 * 60_000;

/** A diff of a large change (thousands of files) is read, parsed and capped on the host before it answers. */
export const DIFF_TIMEOUT_MS = 2 * 60_000;
