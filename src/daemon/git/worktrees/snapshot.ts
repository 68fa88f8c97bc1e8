import { runGit } from '../runGit';
import { indexTree, worktreeTree } from '../tempIndex';

/** A worktree's state at archive: the commit it stood on, and a snapshot commit when it had uncommitted work. */
export interface WorktreeState {
  head: string;
  snapshot: string | null;
}

/**
 * Stores a worktree's whole uncommitted state as one commit, the way `git stash --include-untracked` does
 * but without touching the worktree: its tree is every file on disk git would keep (tracked as they are now,
 * untracked but not ignored), its parents are HEAD and a commit of the index, so staged and unstaged work
 * come back apart. Ignored files are left out on purpose (docs/worktrees.md "Archive"). Null when clean.
 */
export async function takeSnapshot(worktree: string, tempDir: string, threadId: string): Promise<WorktreeState> {
  const head = (await runGit(['rev-parse', '--verify', 'HEAD^{commit}'], { cwd: worktree })).stdout.trim();
  const headTree = (await runGit(['rev-parse', '--verify', 'HEAD^{tree}'], { cwd: worktree })).stdout.trim();
  const files = await worktreeTree(worktree, tempDir);
  // An unresolved merge has no index tree: staged and unstaged then come back together, as files on disk.
  const staged = (await indexTree(worktree, tempDir)) ?? files;
  if (files === headTree && staged === headTree) return { head, snapshot: null };
  const commit = async (tree: string, parents: string[], message: string): Promise<string> =>
    (await runGit(['commit-tree', tree, ...parents.flatMap((p) => ['-p', p]), '-m', message], { cwd: worktree })).stdout.trim();
  const index = await commit(staged, [head], `index of ${threadId} at archive`);
  return { head, snapshot: await commit(files, [head, index], `worktree of ${threadId} at archive`) };
}

/**
 * Puts a snapshot back into a fresh worktree standing on its HEAD: first every file as it was on disk
 * (`read-tree -u --reset` writes them, modes and symlinks included), then the index as it was, so what was
 * untracked is untracked again and staged work is staged again.
 */
export async function applySnapshot(worktree: string, snapshot: string): Promise<void> {
  await runGit(['read-tree', '-u', '--reset', `${snapshot}^{tree}`], { cwd: worktree });
  await runGit(['read-tree', '--reset', `${snapshot}^2^{tree}`], { cwd: worktree });
}
