import { realpath } from 'node:fs/promises';
import { HostCommandError } from '../../../protocol/hostErrors';
import type { GitDiffParams, GitDiffResult } from '../../../protocol/hostGitCommands';
import { requireWorkTree, resolveCommit } from '../gitRepo';
import { readWorkTreeHead } from '../gitFiles/workTreeHead';
import { runGit } from '../runGit';
import { findTurn } from '../turns/turnRefs';
import { DIFF_LIMITS, type DiffLimits } from './diffLimits';
import { changedPaths, diffTrees, diffWorktree, type ChosenPaths, type SendFiles } from './diffWorktree';
import { firstFiles } from './firstFiles';

export interface DiffDeps {
  tempDir: string;
  /** `branch` without a `baseRef`: the base the thread's worktree was made from, if the daemon made one. */
  baseCommitOf(threadId: string): Promise<string | null>;
  limits?: DiffLimits;
}

/**
 * `git.diff` of a thread's folder (its worktree or checkout; the whole work tree it is in):
 * - `uncommitted`: `HEAD` → the files on disk (staged, unstaged and untracked alike);
 * - `branch`: the merge-base of `HEAD` and `baseRef` → the files on disk;
 * - `turn`: the tree recorded at the turn's start → the one at its end (the files on disk while it runs).
 * Given `send`, files go out in parts as git writes them, and the answer holds the files no part carried.
 */
export async function gitDiff(params: GitDiffParams, deps: DiffDeps, send?: SendFiles): Promise<GitDiffResult> {
  const defaults = deps.limits ?? DIFF_LIMITS;
  const limits = { ...defaults, maxFiles: Math.min(defaults.maxFiles, params.maxFiles ?? Infinity) };
  /**
   * The diff `base` → `to` (a recorded tree) or the files on disk; with `maxFiles`, its first files only (a
   * screenful: answered whole), else in parts when `send` takes them.
   */
  const diffOf = (topLevel: string, base: string, to?: string) => {
    const of = (options: { only?: ChosenPaths; send?: SendFiles }) =>
      to ? diffTrees(topLevel, base, to, limits, options) : diffWorktree(topLevel, base, deps.tempDir, limits, options);
    return params.maxFiles
      ? firstFiles(changedPaths(topLevel, base, to), params.maxFiles, (only) => of({ only }))
      : of(send ? { send } : {});
  };
  if (params.scope === 'turn') {
    const { topLevel } = await requireWorkTree(params.path);
    const turn = await findTurn(topLevel, params.threadId, params.turnId);
    if (!turn) throw new HostCommandError('not_found', `no turn ${params.turnId ?? ''} recorded for ${params.threadId}`.replace('  ', ' '));
    const answer = await diffOf(topLevel, turn.start, turn.end ?? undefined);
    return { scope: 'turn', base: turn.start, head: turn.end ?? 'worktree', turnId: turn.turnId, ...answer };
  }
  const { topLevel, head } = await workTreeAtHead(params.path);
  let base = head;
  if (params.scope === 'branch') {
    const baseRef = params.baseRef ?? (await deps.baseCommitOf(params.threadId));
    if (!baseRef) throw new HostCommandError('unknown_ref', 'a branch diff needs a baseRef for a thread without a worktree of ours');
    const baseCommit = await resolveCommit(topLevel, baseRef);
    base = (await runGit(['merge-base', baseCommit, head], { cwd: topLevel })).stdout.trim();
  }
  return { scope: params.scope, base, head: 'worktree', ...(await diffOf(topLevel, base)) };
}

/**
 * The work tree and its `HEAD` commit: read from git's files where they are plain, else in one git run (each
 * run costs a process start, a good part of a diff's time); when that fails, the two questions again one by
 * one, so the answer says which one failed.
 */
async function workTreeAtHead(folder: string): Promise<{ topLevel: string; head: string }> {
  const read = readWorkTreeHead(folder);
  if (read) return read;
  const asked = ['rev-parse', '--show-toplevel', '--verify', '--quiet', '--end-of-options', 'HEAD^{commit}'];
  const [topLevel, head] = (await runGit(asked, { cwd: folder }).catch(() => ({ stdout: '' }))).stdout.split('\n');
  if (topLevel && head) return { topLevel: await realpath(topLevel), head };
  const tree = await requireWorkTree(folder);
  return { topLevel: tree.topLevel, head: await resolveCommit(tree.topLevel, 'HEAD') };
}
