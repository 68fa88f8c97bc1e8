import type { AgentModel } from '../../../protocol/hostModelCommands';
import type { AgentProvider } from '../agentProvider';
import { openIsolatedThread } from './isolatedThread';
import type { ProviderFactoryRef } from './providerFactoryRef';

/** How long closing a thread waits for its agent process to shut its session down before killing it. */
export const DEFAULT_AGENT_DISPOSE_TIMEOUT_MS = 10_000;

export interface IsolateProviderOptions {
  /** The provider's id, known without loading it (the `<id>/prompt/settled` prefix). */
  id: string;
  /** The provider each agent process builds for itself. */
  factory: ProviderFactoryRef;
  /** A script that serves one agent by itself (a bundle of the provider); default the generic entry loading `factory`. */
  entry?: string;
  disposeTimeoutMs?: number;
  /**
   * Reads the agent's model catalog in the daemon itself: it runs no extension, so it needs no process of its
   * own (one would cost an agent's start-up for a list).
   */
  listModels?(): Promise<AgentModel[]>;
  log?(message: string): void;
}

/**
 * Wraps any provider so that each thread's agent runs in a child process of its own: a crash of one agent
 * (an extension's timer throwing, `process.exit`, running out of memory) ends that thread's run only, never
 * the daemon or its other threads. The daemon sees the same `AgentProvider` port and the same frames.
 */
export function isolateProvider(options: IsolateProviderOptions): AgentProvider {
  const log = options.log ?? ((message: string) => console.error(message));
  const disposeTimeoutMs = options.disposeTimeoutMs ?? DEFAULT_AGENT_DISPOSE_TIMEOUT_MS;
  return {
    id: options.id,
    ...(options.listModels ? { listModels: options.listModels } : {}),
    openThread: (thread) =>
      openIsolatedThread({ providerId: options.id, factory: options.factory, entry: options.entry, disposeTimeoutMs, log }, thread),
  };
}
