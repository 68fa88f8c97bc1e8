import { BUILT_IN_ACP_AGENTS, createAcpProvider, declaredAcpAgents } from './providers/acp';
import { isolateProvider } from './providers/isolated';
import {
  createPiProvider,
  deletePiSession,
  forkPiSessionAt,
  listPiModels,
  rewindPiSession,
  PI_PROVIDER_ID,
  piProviderModule,
  type PiProviderOptions,
} from './providers/pi';
import type { AgentProvider } from './providers/agentProvider';

export { DEFAULT_AGENT_START_TIMEOUT_MS } from './providers/agentProvider';
import { bundledPiAgentEntry } from './providers/bundledPiAgent';

/**
 * Where each thread's agent runs: `process` (default) gives every thread a process of its own, so one agent's
 * crash ends only its thread's run; `none` runs agents inside the daemon, ~10 MB instead of ~185 MB an idle
 * thread (docs/pi.md), for a host with many threads that trusts its extensions.
 */
export const AGENT_ISOLATIONS = ['process', 'none'] as const;
export type AgentIsolation = (typeof AGENT_ISOLATIONS)[number];

type ProviderFactory = (log: (message: string) => void, isolation: AgentIsolation) => AgentProvider;

/**
 * Every agent a daemon on this machine can run, by id: adding an agent is its folder under `providers/`
 * plus one line here. `agentProviders` in the server and daemon configs accepts exactly these keys.
 */
const PROVIDER_FACTORIES = {
  pi: (log, isolation) => (isolation === 'process' ? createIsolatedPiProvider({}, log) : createPiProvider({ log })),
  // ACP agents are processes of their own whatever the isolation (docs/agents.md).
  claude: (log) => createAcpProvider({ name: 'claude', spec: BUILT_IN_ACP_AGENTS.claude, log }),
  codex: (log) => createAcpProvider({ name: 'codex', spec: BUILT_IN_ACP_AGENTS.codex, log }),
  gemini: (log) => createAcpProvider({ name: 'gemini', spec: BUILT_IN_ACP_AGENTS.gemini, log }),
} satisfies Record<string, ProviderFactory>;

export type AgentProviderId = keyof typeof PROVIDER_FACTORIES;

/** The registry's ids, for `z.enum` in the configs (a non-empty tuple, as zod wants). */
export const AGENT_PROVIDER_IDS = Object.keys(PROVIDER_FACTORIES) as [AgentProviderId, ...AgentProviderId[]];

export function createProviders(
  ids: readonly string[],
  log: (message: string) => void,
  isolation: AgentIsolation = 'process',
  env: NodeJS.ProcessEnv = process.env,
): AgentProvider[] {
  const declared = declaredAcpAgents(env);
  return ids.map((id) => {
    // An agent the host's owner declared (ATS_ACP_AGENTS) wins over a built-in of the same name.
    if (Object.hasOwn(declared, id)) return createAcpProvider({ name: id, spec: declared[id]!, log });
    if (!Object.hasOwn(PROVIDER_FACTORIES, id))
      throw new Error(`unknown agent provider "${id}" (known: ${knownProviderIds(env).join(', ')})`);
    return PROVIDER_FACTORIES[id as AgentProviderId](log, isolation);
  });
}

/** The built-in ids and the ACP agents declared in `ATS_ACP_AGENTS`: what `agentProviders` may name. */
export function knownProviderIds(env: NodeJS.ProcessEnv = process.env): string[] {
  return [...new Set([...AGENT_PROVIDER_IDS, ...Object.keys(declaredAcpAgents(env))])];
}

/**
 * pi with each thread's agent in a process of its own (issue 12: one agent's crash ends only its thread's
 * run). Options must survive JSON: each agent process builds its own `createPiProvider` from them.
 */
export function createIsolatedPiProvider(
  options: Omit<PiProviderOptions, 'log'>,
  log: (message: string) => void,
  /** The agent process's script: by default the bundle the build made, when the daemon runs compiled. */
  entry: string | undefined = bundledPiAgentEntry(),
): AgentProvider {
  const isolated = isolateProvider({
    id: PI_PROVIDER_ID,
    factory: { ...piProviderModule, options: { ...options } },
    ...(entry ? { entry } : {}),
    listModels: () => listPiModels({ agentDir: options.agentDir }),
    log,
  });
  // Session files are plain files in the daemon's data dir: removing, forking or rewinding them needs no agent process.
  return { ...isolated, deleteSession: deletePiSession, forkSession: forkPiSessionAt, rewindSession: rewindPiSession };
}
