import { isolateProvider } from './providers/isolated';
import { PI_PROVIDER_ID, piProviderModule, type PiProviderOptions } from './providers/pi';
import type { AgentProvider } from './providers/agentProvider';

type ProviderFactory = (log: (message: string) => void) => AgentProvider;

/**
 * Every agent a daemon on this machine can run, by id: adding an agent is its folder under `providers/`
 * plus one line here. `agentProviders` in the server and daemon configs accepts exactly these keys.
 */
const PROVIDER_FACTORIES = {
  pi: (log) => createIsolatedPiProvider({}, log),
} satisfies Record<string, ProviderFactory>;

export type AgentProviderId = keyof typeof PROVIDER_FACTORIES;

/** The registry's ids, for `z.enum` in the configs (a non-empty tuple, as zod wants). */
export const AGENT_PROVIDER_IDS = Object.keys(PROVIDER_FACTORIES) as [AgentProviderId, ...AgentProviderId[]];

export function createProviders(ids: readonly string[], log: (message: string) => void): AgentProvider[] {
  return ids.map((id) => {
    if (!Object.hasOwn(PROVIDER_FACTORIES, id)) throw new Error(`unknown agent provider "${id}" (known: ${AGENT_PROVIDER_IDS.join(', ')})`);
    return PROVIDER_FACTORIES[id as AgentProviderId](log);
  });
}

/**
 * pi with each thread's agent in a process of its own (issue 12: one agent's crash ends only its thread's
 * run). Options must survive JSON: each agent process builds its own `createPiProvider` from them.
 */
export function createIsolatedPiProvider(options: Omit<PiProviderOptions, 'log'>, log: (message: string) => void): AgentProvider {
  return isolateProvider({ id: PI_PROVIDER_ID, factory: { ...piProviderModule, options: { ...options } }, log });
}
