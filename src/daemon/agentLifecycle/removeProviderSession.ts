import path from 'node:path';
import type { EventStore } from '../../store/eventStore';
import type { AgentProvider } from '../providers/agentProvider';
import type { ProviderRegistry } from '../providerRegistry';
import { storedProviderThreadId } from '../../store/storedProviderThreadId';

export interface RemoveSessionDeps {
  providers: ProviderRegistry;
  store: EventStore;
  /** Providers keep their sessions under `<dataDir>/providers/<id>`. */
  dataDir: string;
  log(message: string): void;
}

/**
 * Removes the session a deleted thread's agent kept on this host, once the agent is closed: pi's session files,
 * an ACP agent's session through an agent started for that (`session/delete`). A thread this daemon never opened
 * (a delete right after a restart) is named by its newest stored row, and every provider that keeps sessions
 * is asked, since only the registry knows which one ran it; a session id names one session only. Providers
 * without `deleteSession` leave theirs.
 */
export async function removeProviderSession(
  deps: RemoveSessionDeps,
  threadId: string,
  known: { provider?: AgentProvider; providerThreadId?: string; cwd?: string },
): Promise<void> {
  const providerThreadId = known.providerThreadId ?? (await storedProviderThreadId(deps.store, threadId));
  // A thread whose agent never started has its own id for a session: there is nothing to remove.
  if (providerThreadId === undefined || providerThreadId === threadId) return;
  const providers = known.provider ? [known.provider] : deps.providers.ids().map((id) => deps.providers.get(id)!);
  await Promise.all(
    providers.map((provider) =>
      provider
        .deleteSession?.(providerThreadId, path.join(deps.dataDir, 'providers', provider.id), known.cwd)
        .catch((error: unknown) => deps.log(`thread ${threadId}: the ${provider.id} session was not removed: ${String(error)}`)),
    ),
  );
}
