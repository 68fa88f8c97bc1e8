import { HostCommandError } from '../../../protocol/hostErrors';
import type { GitDiffParams, GitDiffResult } from '../../../protocol/hostGitCommands';
import { requireWorkTree, resolveCommit } from '../gitRepo';
import { runGit } from '../runGit';
import { withTempIndex } from '../tempIndex';
import { findTurn } from '../turns/turnRefs';
import { diffFiles } from './diffFiles';
import { DIFF_LIMITS, type DiffLimits } from './diffLimits';
import { parsePatch } from './parsePatch';
import { parseRawEntries } from './parseRawEntries';

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
 */
export async function gitDiff(params: GitDiffParams, deps: DiffDeps): Promise<GitDiffResult> {
  const { topLevel } = await requireWorkTree(params.path);
  const limits = deps.limits ?? DIFF_LIMITS;
  if (params.scope === 'turn') {
    const turn = await findTurn(topLevel, params.threadId, params.turnId);
    if (!turn) throw new HostCommandError('not_found', `no turn ${params.turnId ?? ''} recorded for ${params.threadId}`.replace('  ', ' '));
    const answer = turn.end
      ? await diffTrees(topLevel, turn.start, turn.end, limits)
      : await diffWorktree(topLevel, turn.start, deps.tempDir, limits);
    return { scope: 'turn', base: turn.start, head: turn.end ?? 'worktree', turnId: turn.turnId, ...answer };
  }
  const head = await resolveCommit(topLevel, 'HEAD');
  let base = head;
  if (params.scope === 'branch') {
    const baseRef = params.baseRef ?? (await deps.baseCommitOf(params.threadId));
    if (!baseRef) throw new HostCommandError('unknown_ref', 'a branch diff needs a baseRef for a thread without a worktree of ours');
    const baseCommit = await resolveCommit(topLevel, baseRef);
    base = (await runGit(['merge-base', baseCommit, head], { cwd: topLevel })).stdout.trim();
  }
  return { scope: params.scope, base, head: 'worktree', ...(await diffWorktree(topLevel, base, deps.tempDir, limits)) };
}

const DIFF_ARGS = ['--raw', '-z', '-p', '-M', '--no-color', '--no-ext-diff', '--no-textconv', '--submodule=short'];

function diffConfig(limits: DiffLimits): string[] {
  return ['-c', `core.bigFileThreshold=${limits.bigFileBytes}`, '-c', 'diff.noprefix=false', '-c', 'diff.relative=false'];
}

/** `base` → the files on disk: a copy of the index marks untracked files intent-to-add, so they diff as added. */
function diffWorktree(
  topLevel: string,
  base: string,
  tempDir: string,
  limits: DiffLimits,
): Promise<Pick<GitDiffResult, 'files' | 'truncated'>> {
  return withTempIndex(topLevel, tempDir, async (env) => {
    await runGit(['add', '--intent-to-add', '--', ':/'], { cwd: topLevel, env });
    const { stdout } = await runGit([...diffConfig(limits), 'diff', ...DIFF_ARGS, base, '--'], { cwd: topLevel, env });
    return parseDiff(stdout, limits);
  });
}

async function diffTrees(
  topLevel: string,
  from: string,
  to: string,
  limits: DiffLimits,
): Promise<Pick<GitDiffResult, 'files' | 'truncated'>> {
  const { stdout } = await runGit([...diffConfig(limits), 'diff', ...DIFF_ARGS, from, to, '--'], { cwd: topLevel });
  return parseDiff(stdout, limits);
}

function parseDiff(output: string, limits: DiffLimits): Pick<GitDiffResult, 'files' | 'truncated'> {
  const { entries, patchStart } = parseRawEntries(output);
  return diffFiles(entries, parsePatch(output.slice(patchStart)), limits);
}
