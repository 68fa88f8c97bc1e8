import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { GitCommandFailed, runGit } from './runGit';

/**
 * Runs `work` with a copy of the work tree's index as `GIT_INDEX_FILE`: the service reads the files on disk
 * through git (`add`, `write-tree`, `diff`) without ever changing what the user has staged. The copy keeps
 * the index's stat data, so only files changed since the last `git status` are read again.
 */
export async function withTempIndex<T>(workTree: string, tempDir: string, work: (env: Record<string, string>) => Promise<T>): Promise<T> {
  const { stdout } = await runGit(['rev-parse', '--path-format=absolute', '--git-path', 'index'], { cwd: workTree });
  await fs.mkdir(tempDir, { recursive: true });
  const temp = path.join(tempDir, `index-${process.pid}-${randomBytes(6).toString('hex')}`);
  await copyIndex(stdout.trim(), temp);
  try {
    return await work({ GIT_INDEX_FILE: temp });
  } finally {
    await Promise.all([fs.rm(temp, { force: true }), fs.rm(`${temp}.lock`, { force: true })]);
  }
}

/**
 * A copy of the index that git reads as it reads the original: with the original's mtime, since git's check
 * for "racily clean" entries (a file changed within the second the index was written, same size) compares
 * entry times with the index file's own. A copy with a fresh mtime would take such a change for no change.
 */
export async function copyIndex(indexFile: string, to: string): Promise<void> {
  try {
    const { atime, mtime } = await fs.stat(indexFile);
    await fs.copyFile(indexFile, to);
    await fs.utimes(to, atime, mtime);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error; // no index yet: git starts an empty one
  }
}

/** The tree of every file on disk that git would keep (tracked ones as they are now, untracked not ignored). */
export function worktreeTree(workTree: string, tempDir: string): Promise<string> {
  return withTempIndex(workTree, tempDir, async (env) => {
    await runGit(['add', '--all', '--', ':/'], { cwd: workTree, env });
    return (await runGit(['write-tree'], { cwd: workTree, env })).stdout.trim();
  });
}

/** The tree of what is staged, or null when the index cannot be one (an unresolved merge). */
export function indexTree(workTree: string, tempDir: string): Promise<string | null> {
  return withTempIndex(workTree, tempDir, async (env) => {
    try {
      return (await runGit(['write-tree'], { cwd: workTree, env })).stdout.trim();
    } catch (error) {
      if (error instanceof GitCommandFailed) return null;
      throw error;
    }
  });
}
