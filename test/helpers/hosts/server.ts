import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import type { HostPresence } from '../../../src/server/hosts/hostPresence';
import { DaemonConfigSchema, type DaemonConfig } from '../../../src/config/daemonConfig';
import { createDaemonLinkRoute } from '../../../src/server/daemonLink/daemonLinkRoute';
import { startRemoteDaemon, type RunningRemoteDaemon } from '../../../src/daemon/remote/startRemoteDaemon';
import { publishingStore } from '../../../src/server/sse/publishingStore';
import { attachUpgrades } from '../../../src/server/http/upgrades';
import type { EventStore } from '../../../src/store/eventStore';
import { startTestServer, TEST_TOKEN, type TestServer } from '../server/harness';
import { eventually } from '../server/eventually';

export interface HostsServer extends TestServer {
  /** Where daemons dial: the server itself (`http://127.0.0.1:PORT`, link at /api/v1/daemon). */
  linkBase: string;
  /**
   * The same link code on a port of its own whose store goes through `wrapStore` (e.g. a gate that holds
   * an append), for tests that must place a crash inside the window between storing and acking.
   */
  gatedLinkBase: string;
  presence: HostPresence;
  logs: string[];
  /** Starts an in-process remote daemon with its own temp data dir (or the given one). */
  daemon(overrides?: Partial<DaemonConfig> & { server?: string }): Promise<RunningRemoteDaemon & { dataDir: string }>;
  /** Resolves once `GET /hosts` shows the host `online` (or not), failing after `timeoutMs`. */
  hostOnline(hostId: string, want?: boolean, timeoutMs?: number): Promise<unknown>;
  closeAll(): Promise<void>;
}

export interface HostsServerOptions {
  graceMs?: number;
  heartbeatMs?: number;
  hostCommandTimeoutMs?: number;
  /** Largest frame the link takes from a daemon. */
  maxPayloadBytes?: number;
  /** Wraps the store daemon batches land in (e.g. a gate that holds an append). */
  wrapStore?(store: EventStore): EventStore;
}

/** A real server on port 0 (daemon link included) plus a gated second link port, silent unless a test reads `logs`. */
export async function startHostsServer(options: HostsServerOptions = {}): Promise<HostsServer> {
  const logs: string[] = [];
  const log = (message: string) => logs.push(message);
  const t = await startTestServer({
    config: {
      agentProviders: 'none',
      hostCommandTimeoutMs: options.hostCommandTimeoutMs ?? 5000,
      hostReconnectGraceMs: options.graceMs ?? 60_000,
      wsHeartbeatMs: options.heartbeatMs ?? 30_000,
      daemonLinkMaxPayloadBytes: options.maxPayloadBytes ?? 64 * 1024 * 1024,
    },
    log,
  });
  const presence = t.server.presence;
  const route = createDaemonLinkRoute(
    {
      token: t.server.token,
      access: t.server.hostAccess,
      revocations: t.server.revocations,
      hosts: t.server.hosts,
      store: (options.wrapStore ?? ((store) => store))(publishingStore(t.server.store, t.server.hub)),
      threads: {
        threadOf: (threadId) => t.server.registry.threads.get(threadId),
        deleted$: (threadId) => t.server.hub.deleted$(threadId),
      },
      log,
    },
    {
      heartbeatMs: options.heartbeatMs ?? 30_000,
      hostCommandTimeoutMs: options.hostCommandTimeoutMs ?? 5000,
      helloTimeoutMs: 5000,
      maxPayloadBytes: options.maxPayloadBytes ?? 64 * 1024 * 1024,
    },
  );
  const linkServer = http.createServer((_req, res) => res.writeHead(404).end());
  attachUpgrades(linkServer, [route]);
  await new Promise<void>((resolve) => linkServer.listen(0, '127.0.0.1', resolve));
  const gatedLinkBase = `http://127.0.0.1:${(linkServer.address() as AddressInfo).port}`;
  const linkBase = t.server.url;
  const daemons: RunningRemoteDaemon[] = [];
  /** Data dirs made here (not the ones a test passed in): removed once their daemons have stopped. */
  const madeDataDirs: string[] = [];

  return {
    ...t,
    linkBase,
    gatedLinkBase,
    presence,
    logs,
    async daemon(overrides = {}) {
      let dataDir = overrides.dataDir;
      if (dataDir === undefined) madeDataDirs.push((dataDir = await mkdtemp(path.join(os.tmpdir(), 'ats-daemon-'))));
      const config = DaemonConfigSchema.parse({
        server: linkBase,
        token: TEST_TOKEN,
        name: 'remote',
        reconnectInitialMs: 50,
        reconnectMaxMs: 200,
        storeRetryMs: 50,
      });
      const running = await startRemoteDaemon({ config: { ...config, ...overrides, dataDir }, log });
      daemons.push(running);
      return { ...running, dataDir };
    },
    hostOnline: (hostId, want = true, timeoutMs = 8000) =>
      eventually(
        async () =>
          (await t.json('/hosts')).find((h: { id: string; online: boolean }) => h.id === hostId && h.online === want) ? true : undefined,
        `${hostId} online=${want}`,
        timeoutMs,
      ),
    async closeAll() {
      await Promise.all(daemons.map((daemon) => daemon.close()));
      await route.close();
      await new Promise<void>((resolve) => linkServer.close(() => resolve()));
      await t.close();
      await Promise.all(madeDataDirs.map((dir) => rm(dir, { recursive: true, force: true })));
    },
  };
}
