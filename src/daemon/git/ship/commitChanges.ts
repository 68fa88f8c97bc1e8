import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import type { GitCommitParams, GitCommitResult } from '../../../protocol/hostShipCommands';
import { HostCommandError } from '../../../protocol/hostErrors';
import { SHIP_ROW_TYPE } from '../../../protocol/shipRows';
import { GitCommandFailed, runGit } from '../runGit';
import { copyIndex } from '../tempIndex';
import { commitIdentity, headOf } from './headOf';
import { installIndex, levelIndex } from './levelIndex';
import { dropShipJournal, shipJournalDir, shipTempFile, writeShipJournal } from './shipJournal';
import type { ShipDeps } from './shipDeps';

/**
 * `git.commit`: what `git add -A [-- paths] && git commit -m …` does, in steps a kill cannot leave half done.
 * The journal first names the commit the branch is at and the message; the change is staged and committed in a
 * *copy* of the index (`GIT_INDEX_FILE`), so the branch's move, git's own locked compare-and-swap, is the one
 * step that makes the commit happen; then the user's index becomes that copy (renamed in under git's own
 * `index.lock`, keeping the stat data `git add` just read, so nothing is hashed twice). A kill before the move
 * leaves the repository as it was; after it, a commit made once (the next start finds it: the branch's tip is
 * a child of the journalled commit with the journalled message) and levels the index (levelIndex.ts).
 */
export async function commitChanges(params: GitCommitParams, deps: ShipDeps): Promise<GitCommitResult> {
  const cwd = params.path;
  const head = await headOf(cwd);
  return deps.locks.run(head.commonDir, async () => {
    const paths = params.paths ?? null;
    await fs.mkdir(shipJournalDir(deps.dataDir), { recursive: true });
    const temp = shipTempFile(deps.dataDir, `commit-index-${process.pid}-${randomBytes(6).toString('hex')}`);
    const journal = {
      action: 'commit' as const,
      threadId: params.threadId,
      path: cwd,
      ref: head.ref,
      old: head.commit,
      message: params.message,
      paths,
      tempIndex: temp,
    };
    try {
      const env = { GIT_INDEX_FILE: temp };
      await Promise.all([
        writeShipJournal(deps.dataDir, journal),
        // Named paths commit as `git commit --only` does: from the branch's tree, whatever else is staged.
        paths ? runGit(['read-tree', head.commit], { cwd, env }) : copyIndex(head.indexFile, temp),
      ]);
      await writeCommit(cwd, env, params.message, paths);
      // Side by side: what the commit changed (for its row), and the user's index put level with it.
      const [{ sha, files }, installed] = await Promise.all([committedFiles(cwd, head.ref), !paths && installIndex(head.indexFile, temp)]);
      if (!installed)
        await levelIndex(cwd, paths).catch((error: Error) => deps.log(`commit ${sha}: the index was not levelled: ${error.message}`));
      await deps.announce(params.threadId, SHIP_ROW_TYPE.committed, { sha, message: params.message, files, branch: head.branch });
      return { sha, message: params.message, files, branch: head.branch };
    } finally {
      await Promise.all([
        fs.rm(temp, { force: true }),
        fs.rm(`${temp}.lock`, { force: true }),
        dropShipJournal(deps.dataDir, params.threadId),
      ]);
    }
  });
}

/**
 * Stages the change in the temporary index and commits it there: `git commit` writes the tree, the commit and
 * moves the branch in one process (its ref update is git's own compare-and-swap from the commit it read).
 * No hook runs (`core.hooksPath=/dev/null`): a daemon never waits on a hook's prompt, and the message the journal
 * names is the one committed (a `prepare-commit-msg` hook could change it, and the recovery finds the commit by it).
 */
async function writeCommit(cwd: string, env: Record<string, string>, message: string, paths: readonly string[] | null): Promise<void> {
  const identity = commitIdentity(cwd); // read while git adds
  try {
    // `:/` and `--` keep every path a path: a name starting with `-` is never read as an option.
    await runGit(['add', '--all', '--', ...(paths ?? [':/'])], { cwd, env });
  } catch (error) {
    if (error instanceof GitCommandFailed && /pathspec/.test(error.stderr)) {
      throw new HostCommandError('invalid_params', `git finds no such path: ${error.stderr.trim()}`);
    }
    throw error;
  }
  try {
    await runGit(['-c', 'core.hooksPath=/dev/null', 'commit', '-q', '--no-verify', '--cleanup=verbatim', '-F', '-'], {
      cwd,
      env: { ...env, ...(await identity) },
      input: message,
    });
  } catch (error) {
    if (error instanceof GitCommandFailed && error.exitCode === 1) {
      throw new HostCommandError('nothing_to_commit', `nothing to commit in ${cwd}${paths ? ` under ${paths.join(', ')}` : ''}`);
    }
    throw error;
  }
}

/** The commit a ref is at and the paths it changed from its parent, in one call (diff-tree names the commit first). */
export async function committedFiles(cwd: string, ref: string): Promise<{ sha: string; files: string[] }> {
  const { stdout } = await runGit(['diff-tree', '-r', '--name-only', '-z', '--no-renames', ref], { cwd });
  const [sha = '', ...files] = stdout.split('\0').filter(Boolean);
  return { sha: sha.trim(), files };
}
