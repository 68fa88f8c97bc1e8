import type { RepoLocks } from '../repoLocks';

/** What the worktree commands share: where worktrees live, a folder for temporary index files, the per-repository locks. */
export interface WorktreeDeps {
  /** The daemon's data dir, as a real path (git notes worktrees by real path). */
  dataDir: string;
  tempDir: string;
  locks: RepoLocks;
  log(message: string): void;
}
