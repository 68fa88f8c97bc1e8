import { runGit } from '../runGit';
import { indexTree, withTempIndex, worktreeTree } from '../tempIndex';

/**
 * The work tree's whole state as one commit, the way `git stash --include-untracked` stores it but without
 * touching anything: its tree is every file on disk git would keep, its parents `HEAD` (when there is one) and
 * a commit of the index. Made even when clean, so every revert has a state to come back to.
 */
export async function storeState(workTree: string, tempDir: string, message: string): Promise<{ commit: string; files: string }> {
  const head = await runGit(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], { cwd: workTree }).then(
    ({ stdout }) => stdout.trim(),
    () => null,
  );
  const files = await worktreeTree(workTree, tempDir);
  const staged = (await indexTree(workTree, tempDir)) ?? files;
  const commit = async (tree: string, parents: string[], text: string): Promise<string> =>
    (await runGit(['commit-tree', tree, ...parents.flatMap((p) => ['-p', p]), '-m', text], { cwd: workTree })).stdout.trim();
  const heads = head ? [head] : [];
  const index = await commit(staged, heads, `index of ${message}`);
  return { commit: await commit(files, [...heads, index], message), files };
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
