import type { RunningServer } from '../../src/server/startServer';

/** Registers a thread straight in the registry: the benches measure ingest and reads, not POST /threads. */
export async function registerBenchThread(server: RunningServer, id: string, createdAt = new Date().toISOString()): Promise<void> {
  await server.registry.threads.insert({
    id,
    projectId: 'proj_bench',
    environmentId: 'env_bench',
    hostId: server.hostId,
    provider: 'pi',
    model: 'm',
    title: 'bench',
    createdAt,
  });
}
