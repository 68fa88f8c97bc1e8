import type { Registry } from '../../registry/registry';
import type { ThreadRecord } from '../../registry/records';

/** The registry records a deleted thread leaves: its worktree's environment and its review comments. */
export async function forgetWorkspace(registry: Registry, thread: ThreadRecord): Promise<void> {
  if (thread.workspace?.kind === 'worktree') {
    const project = await registry.projects.get(thread.projectId);
    if (project?.environmentId !== thread.environmentId) await registry.environments.remove(thread.environmentId);
  }
  for (const comment of await registry.reviewComments.find({ threadId: thread.id })) await registry.reviewComments.remove(comment.id);
}
