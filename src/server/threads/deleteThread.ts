import type { Subscription } from 'rxjs';
import { errorMessageOf } from '../../protocol/errorMessages';
import type { Registry } from '../../registry/registry';
import type { ThreadRecord } from '../../registry/records';
import type { EventStore } from '../../store/eventStore';
import { storedProviderThreadId } from '../../store/storedProviderThreadId';
import type { HostDirectory } from '../hosts/hostDirectory';
import type { EventHub } from '../sse/eventHub';
import { changeThread } from './threadChanges';
import { forgetWorkspace } from '../workspaces/forgetWorkspace';
import { removeOnDelete } from '../workspaces/worktreeLifecycle';

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
 * the record last. Every step after the tombstone may run twice. As the thread's only owner (threadChanges.ts):
 * a change that came first finishes first (its `thread/updated` row then goes with the thread's rows), and
 * every change after it answers 404.
 */
export async function deleteThread(deps: DeleteThreadDeps, threadId: string, options: { deleteBranch?: boolean } = {}): Promise<void> {
  await cutShortWhatRuns(deps, threadId);
  return changeThread(deps.registry, threadId, async (thread) => {
    await deps.registry.threads.markDeleting(thread.id);
    await finishDelete(deps, thread, options.deleteBranch ?? false);
  });
}

/**
 * A prompt being taken owns the thread until its host answers, which an agent that is slow or unable to start
 * makes last seconds (half the command timeout): a stop first cuts that start, or a running turn, short, so
 * the delete that then owns the thread answers at once (issue 37). The delete stops what runs anyway.
 */
async function cutShortWhatRuns(deps: DeleteThreadDeps, threadId: string): Promise<void> {
  const thread = await deps.registry.threads.get(threadId);
  if (!thread || !deps.hosts.isOnline(thread.hostId)) return;
  await deps.hosts.call(thread.hostId, 'thread.stop', { threadId }).catch(() => undefined);
}

async function finishDelete(deps: DeleteThreadDeps, thread: ThreadRecord, deleteBranch = false): Promise<void> {
  const session = await sessionOf(deps.store, thread);
  // The server's part (readers, rows) never waits for a host that may never come back. A host away keeps the
  // tombstone, which names the session, until its next hello (`finishDeletesOnAttach`): its files go then.
  const online = deps.hosts.isOnline(thread.hostId);
  if (online) await removeOnDelete(deps, thread, deleteBranch);
  const hostDone = online && (await deleteOnHost(deps, thread, session));
  if (!hostDone && session !== undefined && session !== thread.providerThreadId)
    await deps.registry.threads.markDeleting(thread.id, { providerThreadId: session });
  deps.hub.announceDeleted(thread.id);
  await deps.store.deleteThread(thread.id);
  await forgetWorkspace(deps.registry, thread);
  if (hostDone) await deps.registry.threads.remove(thread.id);
  else deps.log(`thread ${thread.id}: deleted; its host ${thread.hostId} is offline and removes the session files at its next hello`);
}

/**
 * The agent session the host keeps for the thread: the newest rows name it (the record may still hold the
 * thread's own id when the agent started in the background), else the record, which is all a finished
 * delete's tombstone has left.
 */
async function sessionOf(store: EventStore, thread: ThreadRecord): Promise<string | undefined> {
  const recorded = thread.providerThreadId === thread.id ? undefined : thread.providerThreadId;
  return (await storedProviderThreadId(store, thread.id)) ?? recorded;
}

/** True once the host has forgotten the thread. A host that fails the command is done too (logged). */
async function deleteOnHost(deps: DeleteThreadDeps, thread: ThreadRecord, session: string | undefined): Promise<boolean> {
  try {
    await deps.hosts.call(thread.hostId, 'thread.delete', {
      threadId: thread.id,
      provider: thread.provider,
      ...(session === undefined ? {} : { providerThreadId: session }),
    });
    return true;
  } catch (error) {
    if (!deps.hosts.isOnline(thread.hostId)) return false; // it left during the command: its hello finishes it
    deps.log(`thread ${thread.id}: its host did not delete it (${errorMessageOf(error)})`);
    return true;
  }
}

/** At start (and on any replica): deletes that a crash or a restart cut off are finished, each on its own. */
export async function finishDeletes(deps: DeleteThreadDeps, hostId?: string): Promise<void> {
  for (const thread of await deps.registry.threads.deleting()) {
    if (hostId !== undefined && thread.hostId !== hostId) continue;
    await finishDelete(deps, thread).catch((error: unknown) =>
      deps.log(`thread ${thread.id}: the delete could not be finished (${errorMessageOf(error)}); it is tried again at the next start`),
    );
  }
}

/** A host back online forgets the threads deleted while it was away (their session files). */
export function finishDeletesOnAttach(deps: DeleteThreadDeps): Subscription {
  return deps.hosts.changes$.subscribe((change) => {
    if (change.kind !== 'attached') return;
    void finishDeletes(deps, change.host.id).catch((error: unknown) => deps.log(`unfinished deletes not read: ${errorMessageOf(error)}`));
  });
}
