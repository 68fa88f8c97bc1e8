import type { Registry } from '../../registry/registry';
import type { ThreadRecord } from '../../registry/records';
import type { EventStore } from '../../store/eventStore';
import type { HostDirectory } from '../hosts/hostDirectory';
import type { EventHub } from '../sse/eventHub';

export interface DeleteThreadDeps {
  registry: Registry;
  hosts: HostDirectory;
  store: EventStore;
  hub: EventHub;
  log(message: string): void;
}

/**
 * `DELETE /threads/:id`, in the order that makes a crash at any step leave the thread whole or gone: the
 * durable tombstone first (from then on every reader finds no thread, and the next start finishes the delete,
 * `finishDeletes`), then the host (an open turn is stopped and its `interrupted` completion stored, questions
 * cancelled, the agent's session files removed), then the readers of the thread are told, then its rows, and
 * the record last. Every step after the tombstone may run twice.
 */
export async function deleteThread(deps: DeleteThreadDeps, thread: ThreadRecord): Promise<void> {
  await deps.registry.threads.markDeleting(thread.id);
  await finishDelete(deps, thread);
}

async function finishDelete(deps: DeleteThreadDeps, thread: ThreadRecord): Promise<void> {
  // A host away keeps the thread's session files until it forgets the thread itself (docs/api.md): the
  // server's part (rows, record) must not wait for a host that may never come back.
  // A host that fails the command likewise (its error is logged).
  if (deps.hosts.isOnline(thread.hostId)) {
    await deps.hosts
      .call(thread.hostId, 'thread.delete', { threadId: thread.id })
      .catch((error: unknown) => deps.log(`thread ${thread.id}: its host did not delete it (${(error as Error).message})`));
  }
  deps.hub.announceDeleted(thread.id);
  await deps.store.deleteThread(thread.id);
  await deps.registry.threads.remove(thread.id);
}

/** At start (and on any replica): deletes that a crash or a restart cut off are finished, each on its own. */
export async function finishDeletes(deps: DeleteThreadDeps): Promise<void> {
  for (const thread of await deps.registry.threads.deleting()) {
    await finishDelete(deps, thread).catch((error: unknown) =>
      deps.log(`thread ${thread.id}: the delete could not be finished (${(error as Error).message}); it is tried again at the next start`),
    );
  }
}
