import type { AgentProvider } from './providers/agentProvider';

/** The AgentProviders a daemon can run, by id. A daemon with none still serves intake-only threads. */
export interface ProviderRegistry {
  get(id: string): AgentProvider | undefined;
  ids(): string[];
}

export function createProviderRegistry(providers: readonly AgentProvider[]): ProviderRegistry {
  const byId = new Map(providers.map((provider) => [provider.id, provider]));
  return { get: (id) => byId.get(id), ids: () => [...byId.keys()] };
}
