import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { GitCommitParams, GitCommitResult } from '../../../protocol/hostShipCommands';
import { HostCommandError } from '../../../protocol/hostErrors';
import { SHIP_ROW_TYPE } from '../../../protocol/shipRows';
import { GitCommandFailed, runGit } from '../runGit';
import { commitIdentity, headOf, type Head } from './headOf';
import { installIndex, levelIndex } from './levelIndex';
import { dropShipJournal, writeShipJournal } from './shipJournal';
import type { ShipDeps } from './shipDeps';

/**
 * `git.commit`: what `git add -A [-- paths] && git commit -m …` does, in steps a kill cannot leave half done.
 * The change is staged in a *copy* of the index and written as a commit object; the journal names it; then
 * the branch moves to it in one compare-and-swap (`git update-ref <ref> <new> <old>`), the one step that makes
 * the commit happen; then the user's index becomes that copy (renamed in under git's own `index.lock`, so it
 * keeps the stat data `git add` just read and nothing is hashed twice). A kill before the swap leaves the
 * repository as it was; after it, a commit made once, whose index the next start levels (levelIndex.ts).
 */
export async function commitChanges(params: GitCommitParams, deps: ShipDeps): Promise<GitCommitResult> {
  const cwd = params.path;
  const head = await headOf(cwd);
  return deps.locks.run(head.commonDir, async () => {
    const paths = params.paths ?? null;
    const journal = {
      action: 'commit' as const,
      threadId: params.threadId,
      path: cwd,
      ref: head.ref,
      old: head.commit,
      message: params.message,
      paths,
    };
    await writeShipJournal(deps.dataDir, { ...journal, sha: null, files: [] });
    await fs.mkdir(deps.tempDir, { recursive: true });
    const temp = path.join(deps.tempDir, `commit-index-${process.pid}-${randomBytes(6).toString('hex')}`);
    try {
      const env = { GIT_INDEX_FILE: temp };
      if (paths) {
        // Named paths commit as `git commit --only` does: from the branch's tree, whatever else is staged.
        await runGit(['read-tree', head.commit], { cwd, env });
      } else {
        await copyIndex(head.indexFile, temp);
      }
      const { sha, files } = await writeCommit(cwd, env, head, params.message, paths);
      await writeShipJournal(deps.dataDir, { ...journal, sha, files });
      await runGit(['update-ref', '-m', `commit: ${params.message.split('\n')[0]!.slice(0, 100)}`, head.ref, sha, head.commit], { cwd });
      const installed = !paths && (await installIndex(head.indexFile, temp));
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

/** Stages the change in the temporary index and writes its commit object (not yet on any branch). */
async function writeCommit(
  cwd: string,
  env: Record<string, string>,
  head: Head,
  message: string,
  paths: readonly string[] | null,
): Promise<{ sha: string; files: string[] }> {
  try {
    // `:/` and `--` keep every path a path: a name starting with `-` is never read as an option.
    await runGit(['add', '--all', '--', ...(paths ?? [':/'])], { cwd, env });
  } catch (error) {
    if (error instanceof GitCommandFailed && /pathspec/.test(error.stderr)) {
      throw new HostCommandError('invalid_params', `git finds no such path: ${error.stderr.trim()}`);
    }
    throw error;
  }
  const tree = (await runGit(['write-tree'], { cwd, env })).stdout.trim();
  if (tree === head.tree) {
    throw new HostCommandError('nothing_to_commit', `nothing to commit in ${cwd}${paths ? ` under ${paths.join(', ')}` : ''}`);
  }
  const [sha, files] = await Promise.all([
    commitIdentity(cwd).then((identity) =>
      runGit(['commit-tree', tree, '-p', head.commit, '-F', '-'], { cwd, env: identity, input: message }),
    ),
    runGit(['diff-tree', '-r', '--name-only', '-z', '--no-renames', head.tree, tree], { cwd }),
  ]);
  return { sha: sha.stdout.trim(), files: files.stdout.split('\0').filter(Boolean) };
}

/**
 * A copy of the index that git reads as it reads the original: with the original's mtime, since git's check
 * for "racily clean" entries (a file changed within the second the index was written, same size) compares
 * entry times with the index file's own. A copy with a fresh mtime would take such a change for no change.
 */
async function copyIndex(indexFile: string, temp: string): Promise<void> {
  try {
    const { atime, mtime } = await fs.stat(indexFile);
    await fs.copyFile(indexFile, temp);
    await fs.utimes(temp, atime, mtime);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error; // no index yet: git starts an empty one
  }
}
