import type { HostLink } from '../hosts/hostLink';
import type { HostRecord } from '../../registry/records';
import type { Registry } from '../../registry/registry';
import { notFound, Problem } from '../http/problem';
import { problemFromHostError, type HostDirectory, type HostView } from '../hosts/hostDirectory';
import type { PresenceBoard } from './presenceBoard';
import type { ReplicaPeers } from './replicaPeers';

export interface ReplicatedDirectoryDeps {
  /** This replica's own directory: the links of daemons attached here. */
  local: HostDirectory;
  board: PresenceBoard;
  peers: ReplicaPeers;
  registry: Registry;
  replicaId: string;
  hostCommandTimeoutMs: number;
  now?(): Date;
}

/**
 * The host directory of one replica among several: a host attached here is served by the local directory; a
 * host attached to another live replica is reached through that replica (its commands are forwarded, see
 * replicaPeers), so every route works on every replica. Online, `lastSeenAt` and the moment a host left come
 * from the shared presence table.
 */
export function replicatedHostDirectory(deps: ReplicatedDirectoryDeps): HostDirectory {
  const { local, board } = deps;
  const now = deps.now ?? (() => new Date());
  /** One forwarding link per host and replica, so a thread's intake frames share one ordered socket. */
  const forwarding = new Map<string, { replicaId: string; link: HostLink }>();

  const remoteLinkOf = (hostId: string, record?: HostRecord): HostLink | undefined => {
    const placement = board.placementOf(hostId);
    if (!placement?.online || placement.replicaId === deps.replicaId || !placement.replicaUrl) return undefined;
    const known = forwarding.get(hostId);
    if (known?.replicaId === placement.replicaId) return known.link;
    const hello = {
      hostId,
      name: record?.name ?? hostId,
      platform: record?.platform ?? '',
      protocolVersion: record?.protocolVersion ?? 0,
      providers: record?.providers ?? [],
    };
    const link = deps.peers.linkTo(placement.replicaUrl, hello, deps.hostCommandTimeoutMs);
    forwarding.set(hostId, { replicaId: placement.replicaId, link });
    return link;
  };

  const view = (record: HostRecord, localView: HostView): HostView => {
    if (localView.online) return localView;
    const placement = board.placementOf(record.id);
    if (placement?.online && placement.replicaId !== deps.replicaId) return { ...record, online: true, lastSeenAt: now().toISOString() };
    if (placement?.leftAtMs)
      return {
        ...record,
        online: false,
        lastSeenAt: new Date(Math.max(placement.leftAtMs, Date.parse(record.lastSeenAt) || 0)).toISOString(),
      };
    return localView;
  };

  return {
    attach: (link) => local.attach(link),
    changes$: local.changes$,
    isOnline: (hostId) => local.isOnline(hostId) || remoteLinkOf(hostId) !== undefined,
    linkOf: (hostId) => local.linkOf(hostId) ?? remoteLinkOf(hostId),
    async call(hostId, method, params, options) {
      if (local.isOnline(hostId)) return local.call(hostId, method, params, options);
      const record = await deps.registry.hosts.get(hostId);
      if (!record) throw notFound('host', hostId);
      // The board may be a notification behind (a host that just reconnected to a restarted replica): read the
      // presence table once before saying the host is offline.
      let link = remoteLinkOf(hostId, record);
      if (!link) {
        await board.refresh();
        if (local.isOnline(hostId)) return local.call(hostId, method, params, options);
        link = remoteLinkOf(hostId, record);
      }
      if (!link) throw new Problem(502, 'host_offline', `host ${hostId} is not connected`);
      try {
        return await link.request(method, params, options);
      } catch (error) {
        throw problemFromHostError(error, hostId, method);
      }
    },
    async list() {
      const views = await local.list();
      return views.map((localView) => view(localView, localView));
    },
    async get(hostId) {
      const localView = await local.get(hostId);
      return localView && view(localView, localView);
    },
    closeAll: () => local.closeAll(),
  };
}
