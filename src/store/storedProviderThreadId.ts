import type { EventStore } from './eventStore';

/** Rows read back from the end for a session's name. */
const LAST_ROWS = 64;

/**
 * The session the thread's newest rows name. Rows a daemon stored without knowing the session (a turn it
 * closed after a restart, before any open) name the thread's own id, so those are passed over.
 */
export async function storedProviderThreadId(store: EventStore, threadId: string): Promise<string | undefined> {
  const last = await store.lastSeq(threadId);
  const rows = await store.list(threadId, { afterSeq: Math.max(0, last - LAST_ROWS), limit: LAST_ROWS });
  return rows
    .map((row) => (row.data as { providerThreadId?: unknown }).providerThreadId)
    .filter((named): named is string => typeof named === 'string' && named !== threadId)
    .pop();
}
