import type { Registry } from '../../registry/registry';
import type { StoredThreadEvent } from '../../store/eventStore';
import type { StoredRowsListener } from '../sse/publishingStore';
import { keepProviderThreadId } from './openThreadOnHost';

/**
 * Keeps on each thread's record the agent session its turns run in, as their `turn/started` rows name it. A
 * prompt's answer names it too, except when the host answered while the agent was still starting
 * (`thread.prompt`'s `starting`): without this, a thread whose first agent started slowly would not know its
 * session, and the next start (a daemon restart) would begin a new conversation.
 */
export function keepSessionsFromRows(registry: Registry, log: (message: string) => void): StoredRowsListener {
  return (rows: readonly StoredThreadEvent[]) => {
    const sessions = new Map<string, string>();
    for (const row of rows) {
      const named = row.type === 'turn/started' ? (row.data as { providerThreadId?: unknown }).providerThreadId : undefined;
      if (typeof named === 'string') sessions.set(row.threadId, named);
    }
    for (const [threadId, providerThreadId] of sessions) {
      void registry.threads
        .get(threadId)
        .then((thread) =>
          thread && thread.providerThreadId !== providerThreadId ? keepProviderThreadId(registry, thread, providerThreadId) : undefined,
        )
        .catch((error: unknown) => log(`thread ${threadId}: its session ${providerThreadId} not kept: ${String(error)}`));
    }
  };
}
