import type { Subscription } from 'rxjs';
import { errorMessageOf } from '../../protocol/errorMessages';
import type { Registry } from '../../registry/registry';
import type { HostDirectory } from '../hosts/hostDirectory';
import { WORKTREE_TIMEOUT_MS } from './gitTimeouts';

/**
 * After each hello of a host, the host is told which of its threads still have a worktree (issue 38), and
 * removes its worktrees of every other thread: those deleted while it was away, or half made when it stopped.
 * A thread being made (`creating`) counts as live, so its worktree is never pruned from under it.
 */
export function pruneWorktreesOnAttach(hosts: HostDirectory, deps: { registry: Registry; log(message: string): void }): Subscription {
  return hosts.changes$.subscribe((change) => {
    if (change.kind !== 'attached') return;
    const hostId = change.host.id;
    void (async () => {
      const threads = await deps.registry.threads.find({ hostId });
      const liveThreadIds = threads.filter((thread) => thread.workspace?.kind === 'worktree').map((thread) => thread.id);
      const { removed } = await hosts.call(hostId, 'git.prune_worktrees', { liveThreadIds }, { timeoutMs: WORKTREE_TIMEOUT_MS });
      if (removed.length > 0) deps.log(`host ${hostId}: removed ${removed.length} worktrees of threads that are gone`);
    })().catch((error: unknown) => deps.log(`host ${hostId}: its worktrees were not pruned (${errorMessageOf(error)})`));
  });
}
