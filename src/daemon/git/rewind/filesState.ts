import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { GitCommandFailed, runGit } from '../runGit';
import { copyIndex, withTempIndex } from '../tempIndex';

/**
 * A revert's files in one pass over one temporary index (git start-ups are most of its time): the work tree's
 * whole state is stored as one commit, the way `git stash --include-untracked` stores it but touching nothing
 * (its tree every file on disk git would keep, its parents `HEAD` when there is one and a commit of the index;
 * made even when clean, so every revert has a state to come back to); then `beforeVisible` runs with that commit
 * (the journal and the refs), and only then are the files moved to `target` from the same index, already
 * holding every file on disk. Two copies of the user's index are used; the index itself is never written.
 */
export async function storeStateThenPut(
  workTree: string,
  tempDir: string,
  message: string,
  target: string,
  beforeVisible: (commit: string) => Promise<void>,
): Promise<void> {
  const git = (args: string[], env?: Record<string, string>) =>
    runGit(args, { cwd: workTree, ...(env ? { env } : {}) }).then(({ stdout }) => stdout.trim());
  const [head, index] = await Promise.all([
    git(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']).catch(() => null),
    git(['rev-parse', '--path-format=absolute', '--git-path', 'index']),
  ]);
  await fs.mkdir(tempDir, { recursive: true });
  const files = path.join(tempDir, `index-${process.pid}-${randomBytes(6).toString('hex')}`);
  const staged = `${files}-staged`;
  try {
    await Promise.all([copyIndex(index, files), copyIndex(index, staged)]);
    await git(['add', '--all', '--', ':/'], { GIT_INDEX_FILE: files });
    const [filesTree, stagedTree] = await Promise.all([
      git(['write-tree'], { GIT_INDEX_FILE: files }),
      // An unresolved merge has no index tree: staged and unstaged then come back together, as files on disk.
      git(['write-tree'], { GIT_INDEX_FILE: staged }).catch((error: unknown) => {
        if (error instanceof GitCommandFailed) return null;
        throw error;
      }),
    ]);
    const parents = head ? ['-p', head] : [];
    const indexCommit = await git(['commit-tree', stagedTree ?? filesTree, ...parents, '-m', `index of ${message}`]);
    await beforeVisible(await git(['commit-tree', filesTree, ...parents, '-p', indexCommit, '-m', message]));
    await git(['read-tree', '-u', '--reset', target], { GIT_INDEX_FILE: files });
  } finally {
    await Promise.all([files, `${files}.lock`, staged, `${staged}.lock`].map((file) => fs.rm(file, { force: true })));
  }
}

/**
 * Makes the files on disk exactly `tree` (the files git would keep; ignored ones are left alone): a copy of the
 * index takes every file on disk (`add --all`), then `read-tree -u --reset` moves that copy to the tree, writing
 * what differs and deleting what the tree lacks, untracked files included. The user's index is never written,
 * so a kill leaves no half-written index or `index.lock` of theirs; run again, it ends the same way.
 */
export function putFiles(workTree: string, tempDir: string, tree: string): Promise<void> {
  return withTempIndex(workTree, tempDir, async (env) => {
    await runGit(['add', '--all', '--', ':/'], { cwd: workTree, env });
    await runGit(['read-tree', '-u', '--reset', tree], { cwd: workTree, env });
  });
}
