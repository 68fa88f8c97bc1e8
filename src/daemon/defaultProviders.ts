import { createPiProvider } from './providers/pi';
import type { AgentProvider } from './providers/agentProvider';

/** Every agent a daemon on this machine can run, by id; `agentProviders` in the config picks from these. */
const PROVIDER_FACTORIES: Record<string, (log: (message: string) => void) => AgentProvider> = {
  pi: (log) => createPiProvider({ log }),
};

export function createProviders(ids: readonly string[], log: (message: string) => void): AgentProvider[] {
  return ids.map((id) => {
    const factory = PROVIDER_FACTORIES[id];
    if (!factory) throw new Error(`unknown agent provider "${id}" (known: ${Object.keys(PROVIDER_FACTORIES).join(', ')})`);
    return factory(log);
  });
}
