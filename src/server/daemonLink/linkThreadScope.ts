import type { Observable, Subscription } from 'rxjs';
import type { ThreadRecord } from '../../registry/records';

export interface LinkThreadScopeDeps {
  /** The registry's live thread (one whose delete began is gone already: threadCollection.ts). */
  threadOf(threadId: string): Promise<Pick<ThreadRecord, 'hostId'> | undefined>;
  /** Fires when the thread is deleted (`DELETE /threads/:id`, on this replica or another: the hub hears both). */
  deleted$(threadId: string): Observable<void>;
  /** How long a command the server sent about a thread vouches for it while the registry has no live record. */
  vouchMs: number;
  now?(): number;
}

/**
 * Which threads one daemon link may read and write (issue 37): its host's own, as the registry says, and
 * nothing else: not another host's, not the embedded host's, not a deleted one, not an id that never was.
 */
export interface LinkThreadScope {
  /**
   * The server sent this link a command about the thread, which it sends to the thread's host only. That word
   * is the proof for a moment while the registry has no live record: a new thread is opened on its host before
   * its record is stored (createThread: a bad cwd is refused before anything is kept) and the host reads its
   * rows while it opens; a thread being deleted is hidden from the registry before its host stops the turn and
   * stores the turn's `interrupted` end. The word lasts `vouchMs`, or until the delete is announced.
   */
  vouch(threadId: string): void;
  /** The ids among `threadIds` that are not this host's threads, in the order given; empty when all are. */
  refused(threadIds: Iterable<string>): Promise<string[]>;
  close(): void;
}

/**
 * A thread's host never changes, so a thread found to be this host's stays known (one registry read per thread
 * per link, not one per append: on PostgreSQL that read is a round trip) until the hub says it was deleted.
 */
export function createLinkThreadScope(hostId: string, deps: LinkThreadScopeDeps): LinkThreadScope {
  const now = deps.now ?? Date.now;
  const owned = new Map<string, Subscription>();
  const vouched = new Map<string, { until: number; deleted: Subscription }>();

  const forget = (threadId: string) => {
    owned.get(threadId)?.unsubscribe();
    owned.delete(threadId);
    vouched.get(threadId)?.deleted.unsubscribe();
    vouched.delete(threadId);
  };

  const isOwn = async (threadId: string): Promise<boolean> => {
    if (owned.has(threadId)) return true;
    // Listening before the read: a delete announced while the registry answers must not leave the thread known.
    let deletedMeanwhile = false;
    const deleted = deps.deleted$(threadId).subscribe(() => {
      deletedMeanwhile = true;
      forget(threadId);
    });
    const record = await deps.threadOf(threadId).catch((error: unknown) => {
      deleted.unsubscribe();
      throw error;
    });
    if (record && record.hostId === hostId && !deletedMeanwhile) {
      forget(threadId);
      owned.set(threadId, deleted);
      return true;
    }
    deleted.unsubscribe();
    if (record || deletedMeanwhile) return false;
    const vouch = vouched.get(threadId);
    if (vouch && vouch.until > now()) return true;
    if (vouch) forget(threadId);
    return false;
  };

  return {
    vouch(threadId) {
      if (owned.has(threadId)) return;
      forget(threadId);
      vouched.set(threadId, { until: now() + deps.vouchMs, deleted: deps.deleted$(threadId).subscribe(() => forget(threadId)) });
    },
    async refused(threadIds) {
      const refused: string[] = [];
      for (const threadId of threadIds) if (!(await isOwn(threadId))) refused.push(threadId);
      return refused;
    },
    close() {
      for (const threadId of [...owned.keys(), ...vouched.keys()]) forget(threadId);
    },
  };
}
