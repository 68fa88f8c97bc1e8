import type { ProjectRecord, ThreadRecord } from '../../registry/records';
import type { HostDirectory } from '../hosts/hostDirectory';
import { WORKTREE_TIMEOUT_MS } from './gitTimeouts';

/** How a worktree goes: kept as a snapshot (an archive) or for good, its branch with it only when asked. */
export interface WorktreeRemoval {
  keepSnapshot: boolean;
  deleteBranch?: boolean;
  branch: string | null;
}

/** `git.worktree_remove` of the thread's worktree in its project's repository, waited for as long as git may take. */
export async function removeWorktreeOnHost(
  hosts: HostDirectory,
  thread: ThreadRecord,
  project: ProjectRecord,
  removal: WorktreeRemoval,
): Promise<void> {
  await hosts.call(
    thread.hostId,
    'git.worktree_remove',
    { threadId: thread.id, projectId: project.id, checkout: project.source.path, ...removal },
    { timeoutMs: WORKTREE_TIMEOUT_MS },
  );
}
