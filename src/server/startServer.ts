import { mkdir } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Config } from '../config/serverConfig';
import { createHostDaemon } from '../daemon/hostDaemon';
import type { HostFileOperations } from '../daemon/hostFileHandlers';
import { loadHostIdentity } from '../daemon/hostIdentity';
import { connectInProcess } from '../link/inProcessLink';
import { localHostFiles } from '../daemon/localHostFiles';
import type { AgentProvider } from '../daemon/providers/agentProvider';
import { createHostPresence, trackPresence, type HostPresence } from './hosts/hostPresence';
import { createThreadIngest } from '../ingest/threadIngest';
import { createDaemonLinkRoute } from './daemonLink/daemonLinkRoute';
import { openRegistry, type Registry } from '../registry/registry';
import { openNedbEventStore } from '../store/nedbEventStore';
import type { EventStore } from '../store/eventStore';
import { createApp } from './createApp';
import { createEventHub, type EventHub } from './sse/eventHub';
import { createHostDirectory, type HostDirectory } from './hosts/hostDirectory';
import { createIntakeRoute } from './intake/intakeRoute';
import { publishingStore } from './sse/publishingStore';
import { reopenThreadsOnAttach } from './threads/reopenThreadsOnAttach';
import { loadOrCreateToken } from './serverToken';
import { attachUpgrades } from './http/upgrades';

export interface StartServerOptions {
  config: Config;
  /** Agent providers of the embedded daemon; none means threads take events only from the intake. */
  providers?: readonly AgentProvider[];
  /** Overrides the embedded daemon's file commands (tests). */
  files?: HostFileOperations;
  log?(message: string): void;
}

export interface RunningServer {
  /** `http://HOST:PORT` with the real port. */
  url: string;
  port: number;
  token: string;
  /** Set when the token was generated or read from the data dir. */
  tokenFile?: string;
  /** The embedded daemon's host id. */
  hostId: string;
  registry: Registry;
  store: EventStore;
  hub: EventHub;
  hosts: HostDirectory;
  /** When each remote host's link dropped (reconnect grace). */
  presence: HostPresence;
  /** The listening node:http server, for embedders and tests that watch its connections. */
  httpServer: http.Server;
  close(): Promise<void>;
}

/**
 * The whole service in one process: the HTTP API, the intake, and an embedded daemon for this machine that
 * the server reaches only through the host-daemon contract (an in-process link).
 */
export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const { config } = options;
  const log = options.log ?? ((message: string) => console.error(message));
  await mkdir(config.dataDir, { recursive: true });
  const { token, file: tokenFile } = await loadOrCreateToken(config.dataDir, config.token);
  const store = await openNedbEventStore({ dataDir: config.dataDir });
  const registry = await openRegistry({ dataDir: config.dataDir });
  const hub = createEventHub();
  // Presence hears of every link that comes and goes (embedded or remote): the threads' reconnect grace.
  // Every hello re-opens that host's agent threads, so their sessions (and extensions) resume unprompted.
  const presence = createHostPresence({ graceMs: config.hostReconnectGraceMs });
  const hosts = createHostDirectory({ registry });
  trackPresence(hosts.changes$, presence);
  reopenThreadsOnAttach(hosts, { registry, log });

  const daemonDir = path.join(config.dataDir, 'daemon');
  const daemon = createHostDaemon({
    identity: await loadHostIdentity(daemonDir),
    dataDir: daemonDir,
    store: publishingStore(store, hub),
    providers: options.providers ?? [],
    files: options.files ?? localHostFiles(),
    createIngest: createThreadIngest,
    turnGraceMs: config.turnGraceMs,
    log,
  });
  await hosts.attach(connectInProcess(daemon, { timeoutMs: config.hostCommandTimeoutMs }));

  const app = createApp({ config, token, registry, hosts, store, hub, presence, log });
  const server = http.createServer(app.callback());
  const intake = createIntakeRoute(
    { registry, hosts, timeoutMs: config.hostCommandTimeoutMs, log },
    { token, maxPayloadBytes: config.intakeMaxPayloadBytes, maxInFlight: config.intakeMaxInFlight, heartbeatMs: config.wsHeartbeatMs, log },
  );
  // Remote daemons (docs/hosts.md): their batches land in the same store, published like the embedded one's.
  const daemonLink = createDaemonLinkRoute(
    { token, hosts, store: publishingStore(store, hub), log },
    { heartbeatMs: config.wsHeartbeatMs, hostCommandTimeoutMs: config.hostCommandTimeoutMs, helloTimeoutMs: config.daemonHelloTimeoutMs, maxPayloadBytes: config.daemonLinkMaxPayloadBytes },
  );
  attachUpgrades(server, [intake, daemonLink]);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = config.host.includes(':') ? `[${config.host}]` : config.host;

  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    token,
    tokenFile,
    hostId: daemon.hello.hostId,
    registry,
    store,
    hub,
    hosts,
    presence,
    httpServer: server,
    close: () =>
      (closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        await intake.close();
        await daemonLink.close();
        hub.close(); // ends every SSE stream, so their sockets close
        server.closeIdleConnections();
        await hosts.closeAll();
        await daemon.close();
        await stopped;
        await registry.close();
        await store.close();
      })()),
  };
}
