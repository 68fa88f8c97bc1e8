import { HostCommandError } from '../../../protocol/hostErrors';
import type { WorktreeForkParams, WorktreeForkResult } from '../../../protocol/hostForkCommands';
import { requireWorkTree, type GitWorkTree } from '../gitRepo';
import { runGit } from '../runGit';
import { findTurn } from '../turns/turnRefs';
import { createWorktree } from '../worktrees/createWorktree';
import type { WorktreeDeps } from '../worktrees/worktreeDeps';

/**
 * `git.worktree_fork` (issue 39): the new thread's worktree starts at the tree recorded at the end of one of
 * the source's turns. That tree becomes a commit (`git commit-tree`: an object only, no ref moves, so the
 * source's branch, worktree and refs are untouched), whose parent is the source folder's `HEAD` now, and the
 * worktree is made from it by `createWorktree`: its record, completion marker, start-up recovery and
 * idempotence are what make a fork a SIGKILL cut short happen once or not at all (a kill before the record
 * leaves at most an unreachable commit object, which git's gc drops).
 */
export async function forkWorktree(params: WorktreeForkParams, deps: WorktreeDeps): Promise<WorktreeForkResult> {
  const repo = await requireWorkTree(params.checkout);
  // Under the repository lock: an end tree the recorder has queued (a turn that just completed) is written first.
  const { turnId, tree, commit } = await deps.locks.run(repo.commonDir, async () => {
    const [turn, parent] = await Promise.all([
      findTurn(repo.topLevel, params.sourceThreadId, params.turnId ?? undefined),
      sourceHead(repo, params.sourcePath),
    ]);
    if (!turn || turn.end === null) {
      const which = params.turnId === null ? 'its last turn' : `turn ${params.turnId}`;
      throw new HostCommandError('not_found', `no tree was recorded at the end of ${which} of ${params.sourceThreadId}`);
    }
    const message = `fork of ${params.sourceThreadId} at the end of turn ${turn.turnId}`;
    const { stdout } = await runGit(['commit-tree', turn.end, '-p', parent, '-m', message], { cwd: repo.topLevel });
    return { turnId: turn.turnId, tree: turn.end, commit: stdout.trim() };
  });
  const { sourceThreadId: _source, turnId: _turn, sourcePath: _path, ...create } = params;
  const made = await createWorktree({ ...create, baseRef: commit }, deps);
  return { ...made, tree, turnId };
}

/** The source folder's `HEAD` (its worktree's branch as it is now), else the checkout's. */
async function sourceHead(repo: GitWorkTree, sourcePath: string | undefined): Promise<string> {
  const head = (cwd: string) => runGit(['rev-parse', '--verify', 'HEAD^{commit}'], { cwd }).then(({ stdout }) => stdout.trim());
  if (sourcePath !== undefined) {
    const fromSource = await head(sourcePath).catch(() => null);
    if (fromSource) return fromSource;
  }
  return head(repo.topLevel);
}
