import type { GitCommitParams, GitCommitResult } from '../../../protocol/hostShipCommands';
import { HostCommandError } from '../../../protocol/hostErrors';
import { SHIP_ROW_TYPE } from '../../../protocol/shipRows';
import { requireWorkTree } from '../gitRepo';
import { GitCommandFailed, runGit } from '../runGit';
import { withTempIndex } from '../tempIndex';
import { dropShipJournal, writeShipJournal } from './shipJournal';
import type { ShipDeps } from './shipDeps';

/**
 * `git.commit`: what `git add -A [-- paths] && git commit -m …` does, in steps a kill cannot leave half done.
 * The change is staged in a *copy* of the index and written as a commit object; the journal names it; then
 * the branch moves to it in one compare-and-swap (`git update-ref <ref> <new> <old>`), the one step that makes
 * the commit happen; then the user's index is brought level with it (`git reset -q`, git's own locking). A kill
 * before the swap leaves the repository as it was, after it a commit made once; the user's index is never
 * written by us half-way (the copy is ours, the reset is git's and runs to its end).
 */
export async function commitChanges(params: GitCommitParams, deps: ShipDeps): Promise<GitCommitResult> {
  const cwd = params.path;
  const tree = await requireWorkTree(cwd);
  return deps.locks.run(tree.commonDir, async () => {
    const { ref, branch, old } = await headOf(cwd);
    const paths = params.paths ?? null;
    await writeShipJournal(deps.dataDir, {
      action: 'commit',
      threadId: params.threadId,
      path: cwd,
      ref,
      old,
      sha: null,
      message: params.message,
      files: [],
      paths,
    });
    try {
      const sha = await withTempIndex(cwd, deps.tempDir, async (env) => {
        // Named paths commit as `git commit --only` does: from the branch's tree, whatever else is staged.
        if (paths) await runGit(['read-tree', old], { cwd, env });
        await stage(cwd, env, paths);
        const newTree = (await runGit(['write-tree'], { cwd, env })).stdout.trim();
        if (newTree === (await runGit(['rev-parse', `${old}^{tree}`], { cwd })).stdout.trim()) {
          throw new HostCommandError('nothing_to_commit', `nothing to commit in ${cwd}${paths ? ` under ${paths.join(', ')}` : ''}`);
        }
        const identity = await identityEnv(cwd);
        return (await runGit(['commit-tree', newTree, '-p', old, '-F', '-'], { cwd, env: identity, input: params.message })).stdout.trim();
      });
      const files = await changedFiles(cwd, old, sha);
      await writeShipJournal(deps.dataDir, {
        action: 'commit',
        threadId: params.threadId,
        path: cwd,
        ref,
        old,
        sha,
        message: params.message,
        files,
        paths,
      });
      await runGit(['update-ref', '-m', `commit: ${firstLine(params.message)}`, ref, sha, old], { cwd });
      await levelIndex(cwd, paths).catch((error: Error) => deps.log(`commit ${sha}: the index was not levelled: ${error.message}`));
      await deps.announce(params.threadId, SHIP_ROW_TYPE.committed, { sha, message: params.message, files, branch });
      return { sha, message: params.message, files, branch };
    } finally {
      await dropShipJournal(deps.dataDir, params.threadId);
    }
  });
}

/** The ref a commit moves and where it stands: the current branch, or `HEAD` itself when detached. */
async function headOf(cwd: string): Promise<{ ref: string; branch: string | null; old: string }> {
  const symbolic = await runGit(['symbolic-ref', '-q', 'HEAD'], { cwd }).then(
    (out) => out.stdout.trim(),
    () => null,
  );
  try {
    const old = (await runGit(['rev-parse', '--verify', 'HEAD^{commit}'], { cwd })).stdout.trim();
    return { ref: symbolic ?? 'HEAD', branch: symbolic ? symbolic.replace(/^refs\/heads\//, '') : null, old };
  } catch {
    throw new HostCommandError('git_failed', `${cwd} has no commit yet: make the first one with git itself`);
  }
}

async function stage(cwd: string, env: Record<string, string>, paths: readonly string[] | null): Promise<void> {
  try {
    // `:/` and `--` keep every path a path: a name starting with `-` is never read as an option.
    await runGit(['add', '--all', '--', ...(paths ?? [':/'])], { cwd, env });
  } catch (error) {
    if (error instanceof GitCommandFailed && /pathspec/.test(error.stderr)) {
      throw new HostCommandError('invalid_params', `git finds no such path: ${error.stderr.trim()}`);
    }
    throw error;
  }
}

/** After the branch moved: the index says what `git commit` would have left (the committed paths staged as committed). */
export async function levelIndex(cwd: string, paths: readonly string[] | null): Promise<void> {
  await runGit(['reset', '-q', '--', ...(paths ?? [':/'])], { cwd });
}

export async function changedFiles(cwd: string, old: string, sha: string): Promise<string[]> {
  const { stdout } = await runGit(['diff-tree', '--no-commit-id', '--name-only', '-r', '-z', '--no-renames', old, sha], { cwd });
  return stdout.split('\0').filter(Boolean);
}

/**
 * The user's own name and email when their git config has them (the commit is theirs, as `git commit` would
 * write it); otherwise the service's, which runGit fixes for every call.
 */
async function identityEnv(cwd: string): Promise<Record<string, string>> {
  const read = (key: string) =>
    runGit(['config', '--get', key], { cwd }).then(
      (out) => out.stdout.trim(),
      () => '',
    );
  const [name, email] = await Promise.all([read('user.name'), read('user.email')]);
  return {
    ...(name ? { GIT_AUTHOR_NAME: name, GIT_COMMITTER_NAME: name } : {}),
    ...(email ? { GIT_AUTHOR_EMAIL: email, GIT_COMMITTER_EMAIL: email } : {}),
  };
}

const firstLine = (message: string) => message.split('\n')[0]!.slice(0, 100);
