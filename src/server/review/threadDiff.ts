import type { DiffFile, DiffScope, GitDiffPart, GitDiffResult } from '../../protocol/hostGitCommands';
import type { Registry } from '../../registry/registry';
import type { ThreadRecord } from '../../registry/records';
import type { HostDirectory } from '../hosts/hostDirectory';
import { Problem } from '../http/problem';
import { DIFF_TIMEOUT_MS } from '../workspaces/gitTimeouts';
import { readyFolderOf, workspaceOfThread } from '../workspaces/workspaceOfThread';

export interface ReviewDeps {
  registry: Registry;
  hosts: HostDirectory;
}

/**
 * `GET /threads/:id/diff`: the host's `git.diff` of the thread's folder. A worktree's `branch` diff starts at
 * the merge-base with its base ref (the commit it was made from when that ref was the checkout's `HEAD`, which
 * moves); a checkout thread has no branch of its own (400 `invalid_scope`). With `onFiles`, the host sends
 * files in parts as git writes them, and the answer holds the files no part carried.
 */
export async function threadDiff(
  deps: ReviewDeps,
  thread: ThreadRecord,
  scope: DiffScope,
  options: { turnId?: string; maxFiles?: number; onFiles?: (files: DiffFile[]) => void } = {},
): Promise<GitDiffResult> {
  const { turnId, maxFiles, onFiles } = options;
  const workspace = await workspaceOfThread(deps.registry, thread);
  if (scope === 'branch' && workspace.kind === 'checkout') {
    throw new Problem(
      400,
      'invalid_scope',
      `thread ${thread.id} works in its project's checkout: it has no branch diff (use uncommitted or turn)`,
    );
  }
  const path = readyFolderOf(thread, workspace);
  const baseRef = workspace.baseRef && workspace.baseRef !== 'HEAD' ? workspace.baseRef : workspace.baseCommit;
  return deps.hosts.call(
    thread.hostId,
    'git.diff',
    {
      threadId: thread.id,
      path,
      scope,
      ...(scope === 'branch' && baseRef ? { baseRef } : {}),
      ...(turnId ? { turnId } : {}),
      ...(maxFiles ? { maxFiles } : {}),
    },
    { timeoutMs: DIFF_TIMEOUT_MS, ...(onFiles ? { onPartial: (part: GitDiffPart) => onFiles(part.files) } : {}) },
  );
}
