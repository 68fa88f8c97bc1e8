import { randomBytes } from 'node:crypto';
import { mkdirSync, promises as fs } from 'node:fs';
import type { GitCommitParams, GitCommitResult } from '../../../protocol/hostShipCommands';
import { HostCommandError } from '../../../protocol/hostErrors';
import { SHIP_ROW_TYPE } from '../../../protocol/shipRows';
import { GitCommandFailed, runGit } from '../runGit';
import { copyIndex } from '../tempIndex';
import { commitJustMade, parentSide } from './commitFiles';
import { commitIdentity, headOf, type Head } from './headOf';
import { installIndex, levelIndex } from './levelIndex';
import { dropShipJournal, removeFile, shipJournalDir, shipTempFile, writeShipJournal } from './shipJournal';
import type { ShipDeps } from './shipDeps';

/**
 * `git.commit`: what `git add -A [-- paths] && git commit -m …` does, in steps a kill cannot leave half done.
 * The journal names the commit the branch is at and the message before `git commit` runs; the change is staged
 * and committed in a *copy* of the index (`GIT_INDEX_FILE`), so the branch's move, git's own locked
 * compare-and-swap, is the one step that makes the commit happen; then the user's index becomes that copy
 * (linked in as git's own `index.lock`, keeping the stat data `git add` just read, so nothing is hashed twice).
 * A kill before the move leaves the repository as it was; after it, a commit made once (the next start finds
 * it: the branch's tip is a child of the journalled commit with the journalled message) and levels the index.
 * Two git processes when all goes the usual way, as the same work by hand: `git add` and `git commit` (bench:ship).
 */
export async function commitChanges(params: GitCommitParams, deps: ShipDeps): Promise<GitCommitResult> {
  const head = await headOf(params.path);
  return deps.locks.run(head.commonDir, async () => {
    mkdirSync(shipJournalDir(deps.dataDir), { recursive: true }); // a few microseconds; a wait on the thread pool is more
    const temp = shipTempFile(deps.dataDir, `commit-index-${process.pid}-${randomBytes(6).toString('hex')}`);
    const paths = params.paths ?? null;
    const journal = { action: 'commit' as const, threadId: params.threadId, path: params.path, ref: head.ref, old: head.commit };
    // The journal only has to be written before `git commit`, the one step that changes the repository.
    const journalled = writeShipJournal(deps.dataDir, { ...journal, message: params.message, paths, tempIndex: temp });
    journalled.catch(() => undefined);
    try {
      const { sha, files } = await commitInCopy(params, head, temp, journalled, deps);
      await deps.announce(params.threadId, SHIP_ROW_TYPE.committed, { sha, message: params.message, files, branch: head.branch });
      return { sha, message: params.message, files, branch: head.branch };
    } finally {
      await journalled.catch(() => undefined); // never dropped before its write ended: it would come back
      await Promise.all([removeFile(temp), removeFile(`${temp}.lock`), dropShipJournal(deps.dataDir, params.threadId)]);
    }
  });
}

/** The commit made in the index copy `temp`, the user's index levelled with it; answers the commit and its files. */
async function commitInCopy(params: GitCommitParams, head: Head, temp: string, journalled: Promise<void>, deps: ShipDeps) {
  const cwd = params.path;
  const paths = params.paths ?? null;
  const env = { GIT_INDEX_FILE: temp };
  // Named paths commit as `git commit --only` does: from the branch's tree, whatever else is staged.
  const [, userIndex] = await Promise.all([
    paths ? runGit(['read-tree', head.commit], { cwd, env }) : copyIndex(head.indexFile, temp),
    paths ? null : fs.readFile(head.indexFile).catch(() => null),
  ]);
  const before = userIndex ?? (paths ? await fs.readFile(temp).catch(() => null) : null);
  const staging = stage(cwd, env, paths);
  // Read while git adds (the daemon only waits on it then): the commit's parent, as the index it starts from holds it.
  const parent = parentSide(head, before);
  await staging;
  await journalled;
  await commit(cwd, env, params.message, paths);
  // Side by side: what the commit changed (for its row), and the user's index put level with it.
  const [made, installed] = await Promise.all([commitJustMade(cwd, head, parent, temp), !paths && installIndex(head.indexFile, temp)]);
  if (!installed)
    await levelIndex(cwd, paths).catch((error: Error) => deps.log(`commit ${made.sha}: the index was not levelled: ${error.message}`));
  return made;
}

/** `git add` of every change (or the named paths) into the index copy. */
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

/**
 * Commits the index copy: `git commit` writes the tree, the commit and moves the branch in one process (its ref
 * update is git's own compare-and-swap from the commit it read). No hook runs (`core.hooksPath=/dev/null`): a
 * daemon never waits on a hook's prompt, and the message the journal names is the one committed (a
 * `prepare-commit-msg` hook could change it, and the recovery finds the commit by it).
 */
async function commit(cwd: string, env: Record<string, string>, message: string, paths: readonly string[] | null): Promise<void> {
  try {
    await runCommit(cwd, env, message);
  } catch (error) {
    if (error instanceof GitCommandFailed && error.exitCode === 1) {
      throw new HostCommandError('nothing_to_commit', `nothing to commit in ${cwd}${paths ? ` under ${paths.join(', ')}` : ''}`);
    }
    throw error;
  }
}

/** Git's words when the user's config names no author or committer (`user.useConfigOnly` forbids guessing). */
const NO_IDENTITY = /auto-detection is disabled|unable to auto-detect|empty ident name/;

const COMMIT = ['-c', 'core.hooksPath=/dev/null', '-c', 'user.useConfigOnly=true', 'commit', '-q', '--no-verify', '--cleanup=verbatim'];

/** runGit fixes the service's identity for every call; a commit takes the user's, from their config. */
const USERS_OWN_IDENTITY = {
  GIT_AUTHOR_NAME: undefined,
  GIT_AUTHOR_EMAIL: undefined,
  GIT_COMMITTER_NAME: undefined,
  GIT_COMMITTER_EMAIL: undefined,
};

/**
 * The commit is the user's, as `git commit` there would write it: git reads their identity itself, and
 * `user.useConfigOnly` stops it guessing one from the host and user name. Only when their config has none is
 * the commit run again with the service's filling in (commitIdentity): one git process less for every commit
 * of a configured user than reading the identity first (bench:ship).
 */
async function runCommit(cwd: string, env: Record<string, string>, message: string): Promise<void> {
  const args = [...COMMIT, '-F', '-'];
  try {
    await runGit(args, { cwd, env: { ...env, ...USERS_OWN_IDENTITY }, input: message });
  } catch (error) {
    if (!(error instanceof GitCommandFailed && error.exitCode === 128 && NO_IDENTITY.test(error.stderr))) throw error;
    await runGit(args, { cwd, env: { ...env, ...(await commitIdentity(cwd)) }, input: message });
  }
}
