import type { RevertTurnResult, UnrevertResult } from '../../protocol/hostRewindCommands';
import type { Registry } from '../../registry/registry';
import type { ThreadRecord } from '../../registry/records';
import type { HostDirectory } from '../hosts/hostDirectory';
import { Problem } from '../http/problem';
import { WORKTREE_TIMEOUT_MS } from '../workspaces/gitTimeouts';
import { readyFolderOf, workspaceOfThread } from '../workspaces/workspaceOfThread';

export interface RewindDeps {
  registry: Registry;
  hosts: HostDirectory;
}

/**
 * `POST /threads/:id/revert {turnId}`: the host puts the thread's folder (its worktree, or the checkout) back to
 * the turn's start tree and writes the `thread/reverted` row itself (docs/rewind.md). A turn with no recorded
 * start (older than issue 38, or of another folder) is 404 `turn_not_found`.
 */
export async function revertThread(deps: RewindDeps, thread: ThreadRecord, turnId: string): Promise<RevertTurnResult> {
  const path = readyFolderOf(thread, await workspaceOfThread(deps.registry, thread));
  try {
    return await deps.hosts.call(
      thread.hostId,
      'git.revert_turn',
      { threadId: thread.id, path, turnId },
      { timeoutMs: WORKTREE_TIMEOUT_MS },
    );
  } catch (error) {
    if (error instanceof Problem && error.code === 'not_found') {
      throw new Problem(404, 'turn_not_found', `thread ${thread.id} has no recorded start of turn ${turnId} to revert to`);
    }
    throw error;
  }
}

/** `POST /threads/:id/unrevert`: the newest revert undone (409 `nothing_to_unrevert`, `changed_since_revert`). */
export async function unrevertThread(deps: RewindDeps, thread: ThreadRecord): Promise<UnrevertResult> {
  const path = readyFolderOf(thread, await workspaceOfThread(deps.registry, thread));
  return deps.hosts.call(thread.hostId, 'git.unrevert', { threadId: thread.id, path }, { timeoutMs: WORKTREE_TIMEOUT_MS });
}
