import { createHostDaemon, type HostDaemon, type HostDaemonDeps } from '../../../src/daemon/hostDaemon';
import type { HostFileOperations } from '../../../src/daemon/hostFileHandlers';
import type { AgentProvider, AgentThread } from '../../../src/daemon/providers/agentProvider';
import { createThreadIngest } from '../../../src/ingest/threadIngest';
import type { EventStore } from '../../../src/store/eventStore';

export interface TestDaemon {
  daemon: HostDaemon;
  call(method: string, params: unknown): Promise<any>;
  logs: string[];
}

/**
 * A daemon over `store` running `providers`, with a small idle time so idle closes happen within a test.
 * `createIngest`: the real ingest by default; a test wraps it to watch or hold frames on their way in.
 */
export function daemonWith(
  store: EventStore,
  providers: AgentProvider[],
  agentIdleMs = 40,
  createIngest: HostDaemonDeps['createIngest'] = createThreadIngest,
): TestDaemon {
  const logs: string[] = [];
  const daemon = createHostDaemon({
    identity: { hostId: 'host_test', name: 'test' },
    dataDir: '/tmp/ats-unused',
    store,
    providers,
    files: {} as HostFileOperations,
    createIngest,
    agentIdleMs,
    turnGraceMs: 200,
    log: (message) => logs.push(message),
  });
  let nextId = 1;
  const call = async (method: string, params: unknown): Promise<any> => {
    const response = (await daemon.dispatch({ jsonrpc: '2.0', id: nextId++, method, params })) as any;
    if (response.error) throw Object.assign(new Error(response.error.message), response.error);
    return response.result;
  };
  return { daemon, call, logs };
}

export interface Lifecycle {
  /** Agents alive now, by thread id, and the most ever alive for one thread at once. */
  alive: Map<string, number>;
  mostAlive: number;
  /** Each dispose waits for this when set (a slow close a prompt can race). */
  disposeGate?: Promise<void>;
  /** Disposes begun (a dispose held at the gate counts). */
  disposing: number;
  deleted: Array<[string, string]>;
}

/** Wraps a provider to count its live agents (never two for one thread), gate its disposes and record deletes. */
export function watched(provider: AgentProvider): AgentProvider & { lifecycle: Lifecycle } {
  const lifecycle: Lifecycle = { alive: new Map(), mostAlive: 0, deleted: [], disposing: 0 };
  return {
    ...provider,
    lifecycle,
    async deleteSession(providerThreadId, dataDir) {
      lifecycle.deleted.push([providerThreadId, dataDir]);
    },
    async openThread(options): Promise<AgentThread> {
      const agent = await provider.openThread(options);
      const count = (lifecycle.alive.get(options.threadId) ?? 0) + 1;
      lifecycle.alive.set(options.threadId, count);
      lifecycle.mostAlive = Math.max(lifecycle.mostAlive, count);
      return {
        ...agent,
        providerThreadId: agent.providerThreadId,
        prompt: (text) => agent.prompt(text),
        stop: () => agent.stop(),
        async dispose() {
          lifecycle.disposing += 1;
          await lifecycle.disposeGate;
          await agent.dispose();
          lifecycle.alive.set(options.threadId, lifecycle.alive.get(options.threadId)! - 1);
        },
      };
    },
  };
}
