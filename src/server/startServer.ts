import { mkdir } from 'node:fs/promises';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Config } from '../config/serverConfig';
import { createHostDaemon, type HostDaemon } from '../daemon/hostDaemon';
import type { HostFileOperations } from '../daemon/hostFileHandlers';
import { loadHostIdentity } from '../daemon/hostIdentity';
import { connectInProcess } from './hosts/inProcessLink';
import { localHostFiles, pathListerOptionsOf } from '../daemon/localHostFiles';
import type { AgentProvider } from '../daemon/providers/agentProvider';
import { createHostPresence, trackPresence, type HostPresence } from './hosts/hostPresence';
import { createThreadIngest } from '../ingest/threadIngest';
import { createDaemonLinkRoute } from './daemonLink/daemonLinkRoute';
import type { Registry } from '../registry/registry';
import type { EventStore } from '../store/eventStore';
import type { SearchIndex } from '../store/search/searchIndex';
import { catchUpSearchInBackground } from './search/searchCatchUp';
import { finishDeletes, finishDeletesOnAttach } from './threads/deleteThread';
import { openStorage } from './replicas/openStorage';
import { newReplicaId, startReplica } from './replicas/startReplica';
import { watchedHub, type WatchedHub } from './sse/watchedHub';
import { createApp } from './createApp';
import { createEventHub, type EventHub } from './sse/eventHub';
import { createHostDirectory, type HostDirectory } from './hosts/hostDirectory';
import { createIntakeRoute } from './intake/intakeRoute';
import { publishingStore } from './sse/publishingStore';
import { startWebhookNotifier } from './notifications/webhookNotifier';
import { reopenThreadsOnAttach } from './threads/reopenThreadsOnAttach';
import { pruneWorktreesOnAttach } from './workspaces/pruneWorktreesOnAttach';
import { startPullRequestRefresh } from './ship/refreshPullRequests';
import { loadOrCreateToken } from './serverToken';
import { attachUpgrades } from './http/upgrades';
import type { ServedCertificate } from './tls/certificateWatch';
import { createWebServer } from './tls/webServer';
import { createHostAccess, type HostAccess } from './hostAccess/hostAccess';
import { createHostRevocations, type HostRevocations } from './hostAccess/revocations';

export interface StartServerOptions {
  config: Config;
  /** Agent providers of the embedded daemon; none means threads take events only from the intake. */
  providers?: readonly AgentProvider[];
  /** Overrides the embedded daemon's file commands (tests). */
  files?: HostFileOperations;
  log?(message: string): void;
}

export interface RunningServer {
  /** `http://HOST:PORT` with the real port (`https://` when `tlsCert`/`tlsKey` are set). */
  url: string;
  port: number;
  token: string;
  /** Set when the token was generated or read from the data dir. */
  tokenFile?: string;
  /** The embedded daemon's host id; empty when the server runs none (`embeddedHost: false`). */
  hostId: string;
  /** This process's id among the replicas of one database; set only with `databaseUrl`. */
  replicaId?: string;
  registry: Registry;
  store: EventStore;
  /** Full-text search across threads; `searchCaughtUp` resolves (rows read) once the start's catch-up is done. */
  search: SearchIndex;
  searchCaughtUp: Promise<number>;
  hub: EventHub;
  hosts: HostDirectory;
  /** When each remote host's link dropped (reconnect grace). */
  presence: HostPresence;
  /** Enrollment codes and host credentials (issue 30). */
  hostAccess: HostAccess;
  /** Removed hosts, heard from every replica: daemon link routes close their links. */
  revocations: HostRevocations;
  /** The listening node:http (or node:https) server, for embedders and tests that watch its connections. */
  httpServer: http.Server;
  /** Set over TLS: the served certificate; `reload` is what SIGHUP calls. */
  certificate?: ServedCertificate;
  close(): Promise<void>;
}

/**
 * The whole service in one process: the HTTP API, the intake, and an embedded daemon for this machine that
 * the server reaches only through the host-daemon contract (an in-process link).
 */
export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const { config } = options;
  const log = options.log ?? ((message: string) => console.error(message));
  // Before anything is opened: a TLS setting that cannot be served fails the start with its name.
  const { server, scheme, certificate } = await createWebServer(config, log);
  await mkdir(config.dataDir, { recursive: true });
  const { token, file: tokenFile } = await loadOrCreateToken(config.dataDir, config.token);
  const replicaId = config.databaseUrl ? newReplicaId() : undefined;
  const storage = await openStorage({ ...config, replicaId: replicaId ?? '', log });
  const { store, registry, search } = storage;
  const { caughtUp, stop: stopCatchUp } = catchUpSearchInBackground(registry, store, search, log);
  const watched = storage.postgres ? watchedHub(createEventHub()) : undefined;
  const hub: EventHub = watched ?? createEventHub();
  // Presence hears of every link that comes and goes (embedded or remote): the threads' reconnect grace.
  // Every hello re-opens that host's agent threads, so their sessions (and extensions) resume unprompted.
  const localPresence = createHostPresence({ graceMs: config.hostReconnectGraceMs });
  const localHosts = createHostDirectory({ registry });
  trackPresence(localHosts.changes$, localPresence);
  const replica = startSharedReplica(config, storage, { replicaId, token, watched, localHosts, localPresence, log });
  const hosts = replica?.hosts ?? localHosts;
  const presence = replica?.presence ?? localPresence;
  const revocations = replica?.revocations ?? createHostRevocations();
  const hostAccess = createHostAccess(registry, { enrollmentTtlMs: config.enrollmentTtlMs });
  reopenThreadsOnAttach(hosts, { registry, store, log });
  pruneWorktreesOnAttach(hosts, { registry, log });
  // Links in notifications point at the page (ATS_PUBLIC_URL, else the listening URL, whose port 0 becomes
  // real once the server listens); rows stored before that (a lost run closed at start) link to the port asked for.
  const urlHost = config.host.includes(':') ? `[${config.host}]` : config.host;
  let pageUrl = config.publicUrl?.replace(/\/+$/, '') ?? `${scheme}://${urlHost}:${config.port}`;
  const notifier = startWebhookNotifier(config, { registry, pageUrl: () => pageUrl, log });
  const storeForDaemons = () => publishingStore(store, hub, notifier?.rowsStored);

  const daemon = config.embeddedHost ? await embeddedHost(options, storeForDaemons(), log) : undefined;
  if (daemon) await hosts.attach(connectInProcess(daemon, { timeoutMs: config.hostCommandTimeoutMs }));
  // Deletes a crash or a restart cut off (their threads are hidden already) finish once this machine's host is back.
  const deletes = { registry, hosts, store, hub, log };
  void finishDeletes(deletes).catch((error: unknown) => log(`unfinished deletes not read: ${String(error)}`));
  finishDeletesOnAttach(deletes);

  // Open pull requests' state, read on their hosts every minute (issue 39).
  const pullRequestRefresh = startPullRequestRefresh({ registry, hosts, store, hub, log });
  const app = createApp({ config, token, registry, hosts, store, search, hub, presence, hostAccess, revocations, log });
  server.on('request', app.callback());
  const { intake, daemonLink } = createLinkRoutes(config, {
    token,
    registry,
    hosts,
    hostAccess,
    revocations,
    hub,
    store: storeForDaemons(),
    log,
  });
  attachUpgrades(server, replica ? [intake, daemonLink, replica.route] : [intake, daemonLink]);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `${scheme}://${urlHost}:${port}`;
  if (!config.publicUrl) pageUrl = url;
  await replica?.announce(config.replicaUrl ?? url);

  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    token,
    tokenFile,
    hostId: daemon?.hello.hostId ?? '',
    replicaId,
    registry,
    store,
    search,
    searchCaughtUp: caughtUp,
    hub,
    hosts,
    presence,
    hostAccess,
    revocations,
    httpServer: server,
    certificate,
    close: () =>
      (closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        certificate?.close();
        pullRequestRefresh.stop();
        await intake.close();
        await daemonLink.close();
        await replica?.route.close(); // its sockets would hold up the server's close
        hub.close(); // ends every SSE stream, so their sockets close
        server.closeIdleConnections();
        await hosts.closeAll();
        await daemon?.close();
        notifier?.close();
        await stopped;
        await replica?.close();
        stopCatchUp();
        await caughtUp;
        await registry.close();
        await store.close();
        await storage.close();
      })()),
  };
}

/** This machine's own host daemon (`embeddedHost`), in this process, its data under `<dataDir>/daemon`. */
async function embeddedHost(options: StartServerOptions, store: EventStore, log: (message: string) => void): Promise<HostDaemon> {
  const { config } = options;
  const daemonDir = path.join(config.dataDir, 'daemon');
  return createHostDaemon({
    identity: await loadHostIdentity(daemonDir),
    dataDir: daemonDir,
    store,
    providers: options.providers ?? [],
    files: options.files ?? localHostFiles(pathListerOptionsOf(config, log)),
    createIngest: createThreadIngest,
    allowFullAccess: config.allowFullAccess,
    allowRoots: config.allowRoots,
    turnGraceMs: config.turnGraceMs,
    agentIdleMs: config.agentIdleMs,
    agentStartTimeoutMs: config.agentStartTimeoutMs,
    log,
  });
}

/** With a database, this process is one replica of several (docs/replicas.md): hosts and presence are shared. */
function startSharedReplica(
  config: Config,
  storage: Awaited<ReturnType<typeof openStorage>>,
  local: {
    replicaId: string | undefined;
    token: string;
    watched: WatchedHub | undefined;
    localHosts: HostDirectory;
    localPresence: HostPresence;
    log: (message: string) => void;
  },
) {
  const { postgres } = storage;
  const { replicaId, token, watched, ...rest } = local;
  if (!postgres || !watched || !replicaId || !config.databaseUrl) return undefined;
  return startReplica(replicaId, {
    settings: { ...config, databaseUrl: config.databaseUrl, token },
    pool: postgres.database.pool,
    store: postgres.store,
    registry: storage.registry,
    hub: watched,
    ...rest,
  });
}

/** The intake's WebSocket, and the remote daemons' link (docs/hosts.md): their batches land in the same store, published like the embedded one's. */
function createLinkRoutes(
  config: Config,
  deps: {
    token: string;
    registry: Registry;
    hosts: HostDirectory;
    hostAccess: HostAccess;
    revocations: HostRevocations;
    hub: EventHub;
    store: EventStore;
    log: (message: string) => void;
  },
) {
  const { token, registry, hosts, hostAccess, revocations, hub, store, log } = deps;
  const intake = createIntakeRoute(
    { registry, hosts, timeoutMs: config.hostCommandTimeoutMs, log },
    { token, maxPayloadBytes: config.intakeMaxPayloadBytes, maxInFlight: config.intakeMaxInFlight, heartbeatMs: config.wsHeartbeatMs, log },
  );
  const daemonLink = createDaemonLinkRoute(
    {
      token,
      access: hostAccess,
      revocations,
      hosts,
      store,
      threads: { threadOf: (threadId) => registry.threads.get(threadId), deleted$: (threadId) => hub.deleted$(threadId) },
      log,
    },
    {
      heartbeatMs: config.wsHeartbeatMs,
      hostCommandTimeoutMs: config.hostCommandTimeoutMs,
      helloTimeoutMs: config.daemonHelloTimeoutMs,
      maxPayloadBytes: config.daemonLinkMaxPayloadBytes,
    },
  );
  return { intake, daemonLink };
}
