import { promises as fs } from 'node:fs';
import path from 'node:path';
import { gitSucceeds, runGit } from '../runGit';
import type { WorktreeRecord } from './worktreeRecord';

/**
 * `git worktree add` of a record's folder: a new branch at the base, an existing branch, or detached. Paths
 * go after `--`, the branch name was checked with `check-ref-format --branch` and never starts with `-`.
 */
export async function addWorktree(record: WorktreeRecord, at: string, newBranch: boolean): Promise<void> {
  const { checkout, path: folder, branch } = record;
  const args =
    branch === null
      ? ['worktree', 'add', '--detach', '--', folder, at]
      : newBranch
        ? ['worktree', 'add', '--no-track', '-b', branch, '--', folder, at]
        : ['worktree', 'add', '--', folder, branch];
  await runGit(args, { cwd: checkout });
}

/**
 * Removes one of our worktree folders and git's note of it (`<common dir>/worktrees/<name>`), whatever state
 * a kill left it in: git's own `worktree remove --force` first; when git no longer sees a worktree there
 * (its `.git` file gone half way), the folder is deleted and only the admin folder naming it is dropped, so
 * no other worktree of the repository is pruned with it. Callers have stored what must survive first.
 */
export async function discardWorktree(record: Pick<WorktreeRecord, 'checkout' | 'commonDir' | 'path'>): Promise<void> {
  if (await exists(record.path)) {
    await gitSucceeds(['worktree', 'remove', '--force', '--force', '--', record.path], { cwd: record.checkout });
    await fs.rm(record.path, { recursive: true, force: true });
  }
  await forgetAdmin(record.commonDir, record.path);
}

async function forgetAdmin(commonDir: string, folder: string): Promise<void> {
  const admin = path.join(commonDir, 'worktrees');
  let names: string[];
  try {
    names = await fs.readdir(admin);
  } catch {
    return;
  }
  const gitFile = path.join(folder, '.git');
  for (const name of names) {
    const pointsAt = await fs.readFile(path.join(admin, name, 'gitdir'), 'utf8').catch(() => '');
    if (pointsAt.trim() === gitFile) await fs.rm(path.join(admin, name), { recursive: true, force: true });
  }
}

/**
 * Deletes the branch only if we made it: with `expectedTip`, only if it still stands there (a compare-and-
 * delete, for a create undone); without, as `git branch -D` does, which refuses a branch checked out anywhere.
 */
export async function deleteCreatedBranch(record: WorktreeRecord, expectedTip: string | null): Promise<void> {
  if (!record.createdBranch || record.branch === null) return;
  const args = expectedTip ? ['update-ref', '-d', `refs/heads/${record.branch}`, expectedTip] : ['branch', '-D', record.branch];
  await gitSucceeds(args, { cwd: record.checkout });
}

export async function exists(file: string): Promise<boolean> {
  try {
    await fs.lstat(file);
    return true;
  } catch {
    return false;
  }
}

/** True when the folder is a live worktree git can read (its `.git` file and admin folder both in place). */
export async function isWorkTree(folder: string): Promise<boolean> {
  return (await exists(path.join(folder, '.git'))) && gitSucceeds(['rev-parse', '--verify', '--quiet', 'HEAD'], { cwd: folder });
}
