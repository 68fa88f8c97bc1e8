import type { ThreadRecord } from '../../registry/records';
import type { Registry } from '../../registry/registry';
import { readyFolderOf, workspaceOfThread } from '../workspaces/workspaceOfThread';

/**
 * The folder a thread's work is shipped from: its worktree (on the thread's branch), or the project's checkout
 * for a checkout thread (whatever branch the checkout is on, as `git commit` there would). A worktree that is
 * not there (archived, failed) is 409 `workspace_not_ready`.
 */
export async function shipFolderOf(registry: Pick<Registry, 'environments'>, thread: ThreadRecord): Promise<string> {
  return readyFolderOf(thread, await workspaceOfThread(registry, thread));
}
