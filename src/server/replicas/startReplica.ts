import { randomBytes } from 'node:crypto';
import type { Subscription } from 'rxjs';
import type { Pool } from 'pg';
import type { Registry } from '../../registry/registry';
import { listenToDatabase } from '../../store/postgres/databaseListener';
import { EVENTS_CHANNEL, type PostgresEventStore } from '../../store/postgres/postgresEventStore';
import { HOST_REVOKED_CHANNEL, HOSTS_CHANNEL, replicaTables } from '../../store/postgres/replicaTables';
import { createHostRevocations } from '../hostAccess/revocations';
import type { HostDirectory } from '../hosts/hostDirectory';
import type { HostPresence } from '../hosts/hostPresence';
import type { UpgradeRoute } from '../http/upgrades';
import type { WatchedHub } from '../sse/watchedHub';
import { createPresenceBoard } from './presenceBoard';
import { createReplicaFeed } from './replicaFeed';
import { createReplicaLinkRoute } from './replicaLinkRoute';
import { createReplicaPeers } from './replicaPeers';
import { replicatedHostDirectory } from './replicatedHostDirectory';
import { sharedHostPresence } from './sharedHostPresence';

export interface ReplicaSettings {
  databaseUrl: string;
  token: string;
  replicaHeartbeatMs: number;
  replicaDeadAfterMs: number;
  sseCatchUpMs: number;
  hostReconnectGraceMs: number;
  hostCommandTimeoutMs: number;
  wsHeartbeatMs: number;
  daemonLinkMaxPayloadBytes: number;
  eventsPageMax: number;
  /** The CA file the other replicas' https certificates are checked against (`ATS_TLS_CA`); unset: the system's. */
  tlsCa?: string;
}

export interface ReplicaDeps {
  settings: ReplicaSettings;
  pool: Pool;
  store: PostgresEventStore;
  registry: Registry;
  hub: WatchedHub;
  /** This process's own directory and presence (its attached daemons). */
  localHosts: HostDirectory;
  localPresence: HostPresence;
  log(message: string): void;
}

/** A new id per process start: a restarted server is a new replica, and the old row reads as dead. */
export function newReplicaId(): string {
  return `rep_${randomBytes(6).toString('hex')}`;
}

/**
 * Makes one server process a replica among several on one PostgreSQL database: its row and heartbeat, the
 * shared host presence (written as daemons attach and leave here, read for every host), host commands
 * forwarded to whichever replica holds the host, rows appended elsewhere delivered to SSE readers here, and
 * hosts removed through any replica closed here. `hosts`, `presence` and `revocations` replace the local ones; `route` goes on the HTTP server; `announce`
 * registers the replica under the URL the others should use, once the server listens.
 */
export function startReplica(replicaId: string, deps: ReplicaDeps) {
  const { settings, log } = deps;
  const tables = replicaTables(deps.pool);
  const board = createPresenceBoard(tables, settings.replicaDeadAfterMs, log);
  const peers = createReplicaPeers({
    token: settings.token,
    heartbeatMs: settings.wsHeartbeatMs,
    maxPayloadBytes: settings.daemonLinkMaxPayloadBytes,
    hopMarginMs: 1_000,
    caFile: settings.tlsCa,
    log,
  });
  const hosts = replicatedHostDirectory({
    local: deps.localHosts,
    board,
    peers,
    registry: deps.registry,
    replicaId,
    hostCommandTimeoutMs: settings.hostCommandTimeoutMs,
  });
  const presence = sharedHostPresence(deps.localPresence, board, settings.hostReconnectGraceMs);
  // A NOTIFY reaches every replica within milliseconds; one lost while the listener reconnected is made up
  // for by re-checking every link against the registry once listening again (onListening below).
  const revocations = createHostRevocations((hostId) => tables.revoked(hostId));
  const route: UpgradeRoute & { close(): Promise<void> } = createReplicaLinkRoute({
    token: settings.token,
    localLinkOf: (hostId) => deps.localHosts.linkOf(hostId),
    heartbeatMs: settings.wsHeartbeatMs,
    maxPayloadBytes: settings.daemonLinkMaxPayloadBytes,
    log,
  });
  const feed = createReplicaFeed({
    store: deps.store,
    lastSeqs: (ids) => deps.store.lastSeqs(ids),
    hub: deps.hub,
    isDeleted: async (threadId) => (await deps.registry.threads.get(threadId)) === undefined,
    replicaId,
    pageSize: settings.eventsPageMax,
    log,
  });

  // Presence writes are chained so a quick attach-detach-attach of one host lands in that order.
  let writes: Promise<void> = Promise.resolve();
  const write = (what: string, run: () => Promise<void>) => {
    writes = writes.then(run).then(
      () => board.refresh(),
      (error: unknown) => log(`host presence: ${what} failed: ${error instanceof Error ? error.message : String(error)}`),
    );
  };
  const following: Subscription = deps.localHosts.changes$.subscribe((change) => {
    if (change.kind === 'attached') write(`attach of ${change.host.id}`, () => tables.attached(change.host.id, replicaId));
    else write(`detach of ${change.hostId}`, () => tables.detached(change.hostId, replicaId));
  });

  const listener = listenToDatabase({
    url: settings.databaseUrl,
    channels: [EVENTS_CHANNEL, HOSTS_CHANNEL, HOST_REVOKED_CHANNEL],
    onNotification: (channel, payload) => {
      if (channel === EVENTS_CHANNEL) feed.notified(payload);
      else if (channel === HOST_REVOKED_CHANNEL) revocations.heard(payload);
      else void board.refresh();
    },
    onListening: () => {
      void board.refresh();
      revocations.mayHaveMissed();
      void feed.catchUp().catch((error: unknown) => log(`replica feed catch-up failed: ${String(error)}`));
    },
    retryMs: settings.replicaHeartbeatMs,
    log,
  });

  let heartbeat: NodeJS.Timeout | undefined;
  let catchUp: NodeJS.Timeout | undefined;

  return {
    replicaId,
    hosts,
    presence,
    revocations,
    route,
    async announce(url: string): Promise<void> {
      await tables.register(replicaId, url);
      await tables.forgetStopped(24 * 60 * 60 * 1000).catch(() => {});
      await board.refresh();
      heartbeat = setInterval(() => {
        tables.heartbeat(replicaId).then(
          () => board.refresh(),
          (error: unknown) => log(`replica heartbeat failed: ${error instanceof Error ? error.message : String(error)}`),
        );
      }, settings.replicaHeartbeatMs);
      catchUp = setInterval(() => void feed.catchUp().catch(() => {}), settings.sseCatchUpMs);
    },
    /** After the host links closed (their detaches are written first). */
    async close(): Promise<void> {
      clearInterval(heartbeat);
      clearInterval(catchUp);
      following.unsubscribe();
      await writes;
      await tables.stop(replicaId).catch(() => {});
      await listener.close();
      await route.close();
      await peers.close();
    },
  };
}
export type RunningReplica = ReturnType<typeof startReplica>;
