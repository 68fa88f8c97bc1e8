import type { Registry } from '../../registry/registry';
import type { ThreadRecord, Workspace } from '../../registry/records';
import { Problem } from '../http/problem';

/**
 * The workspace a thread works in. Threads from before issue 38 have none on their record: they work in their
 * environment's folder, which is what a checkout workspace is.
 */
export async function workspaceOfThread(registry: Pick<Registry, 'environments'>, thread: ThreadRecord): Promise<Workspace> {
  if (thread.workspace) return thread.workspace;
  const environment = await registry.environments.get(thread.environmentId);
  return checkoutWorkspace(environment?.path ?? '');
}

export function checkoutWorkspace(path: string): Workspace {
  return { kind: 'checkout', path, branch: null, baseRef: null, baseCommit: null, state: 'ready' };
}

/** The folder a diff or a review reads: a worktree that is not there (archived, failed) has none. */
export function readyFolderOf(thread: ThreadRecord, workspace: Workspace): string {
  if (workspace.state !== 'ready') {
    throw new Problem(
      409,
      'workspace_not_ready',
      `thread ${thread.id}'s worktree is ${workspace.state}: unarchive or prompt the thread first`,
    );
  }
  return workspace.path;
}
