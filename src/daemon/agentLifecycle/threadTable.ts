import type { ThreadSession } from './threadSession';

/**
 * What the daemon knows of one thread: the session it names in rows, and the thread's session here (its agent
 * slot, questions, idle timer) once the thread is open on this host. A thread fed only by the intake has a
 * record without one, for the session the server named.
 */
export interface ThreadRecord {
  /** Its own id until an agent names its session (an intake-only thread keeps it). */
  providerThreadId: string;
  session?: ThreadSession;
}

/** What the ingest reads of a thread while its frames pass (hostDaemon's `createIngest` deps). */
export interface ThreadLookups {
  providerThreadIdFor(threadId: string): string;
  contextWindowFor(threadId: string): number | undefined;
  checkpointIdFor(threadId: string): string | undefined;
  providerIdFor(threadId: string): string | undefined;
}

/**
 * One record per thread, the daemon's only map of threads (issue 37): whatever a thread owns on this host is
 * found through its record and ends through `forget` (a delete) or `closeAll` (the daemon's close), so nothing of
 * a thread outlives it, and no other map needs clearing by hand.
 */
export interface ThreadTable {
  readonly lookups: ThreadLookups;
  record(threadId: string): ThreadRecord | undefined;
  session(threadId: string): ThreadSession | undefined;
  /** The thread's record, made on first use. */
  recordOf(threadId: string): ThreadRecord;
  /** Ends everything the thread owns here (questions cancelled with `reason`, idle timer, agent) and drops it. */
  forget(threadId: string, reason: Error): Promise<void>;
  /** The daemon's close: from now on no agent starts, and every thread's agent ends (starts under way cut short). */
  closeAll(reason: string): Promise<void>;
  closing(): boolean;
}

export function createThreadTable(): ThreadTable {
  const records = new Map<string, ThreadRecord>();
  let closing = false;
  const session = (threadId: string) => records.get(threadId)?.session;

  const end = async (open: ThreadSession | undefined, reason: Error) => {
    if (!open) return;
    open.idle.cancel();
    open.approvals.cancelAll(reason.message);
    await open.agent.close(reason);
  };

  return {
    lookups: {
      // Threads nobody opened here (intake-only) use their own id, so rows always name a providerThreadId.
      providerThreadIdFor: (threadId) => records.get(threadId)?.providerThreadId ?? threadId,
      contextWindowFor: (threadId) => session(threadId)?.agent.running()?.contextWindow?.(),
      // Read synchronously while the frame that closes a turn (the run's agent_end) passes the pipeline; pi has
      // stored the run's last message by then and nothing newer (docs/pi.md "Sessions … checkpoints").
      checkpointIdFor: (threadId) => session(threadId)?.agent.running()?.checkpointId?.(),
      // provider/unhandled rows name the thread's agent (a host may run pi, claude and codex side by side).
      providerIdFor: (threadId) => session(threadId)?.provider?.id,
    },
    record: (threadId) => records.get(threadId),
    session,
    recordOf(threadId) {
      let record = records.get(threadId);
      if (!record) records.set(threadId, (record = { providerThreadId: threadId }));
      return record;
    },
    async forget(threadId, reason) {
      const open = session(threadId);
      // Dropped first: a later command finds no thread (thread_not_open) instead of starting its agent again.
      records.delete(threadId);
      await end(open, reason);
    },
    async closeAll(reason) {
      closing = true;
      const open = [...records.values()].map((record) => record.session);
      // Agents still starting are cut short and awaited, so none is left running behind a closed daemon.
      await Promise.all(open.map((thread) => end(thread, new Error(reason))));
      records.clear();
    },
    closing: () => closing,
  };
}
