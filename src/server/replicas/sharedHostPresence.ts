import type { HostPresence, ThreadRuntime } from '../hosts/hostPresence';
import type { PresenceBoard } from './presenceBoard';

/**
 * `runtime` of threads when several replicas share the hosts: a host's leaving is the moment the shared
 * presence table says (its detach on whichever replica held it, or that replica's last heartbeat when the
 * replica died), so every replica shows the same `host-reconnecting` deadline. A host the table does not
 * know falls back to this replica's own memory (the single-server rule).
 */
export function sharedHostPresence(local: HostPresence, board: PresenceBoard, graceMs: number, now: () => number = Date.now): HostPresence {
  const graceExpiresAt = (hostId: string, online: boolean): number | null => {
    if (online) return null;
    const leftAtMs = board.placementOf(hostId)?.leftAtMs;
    return leftAtMs ? leftAtMs + graceMs : local.graceExpiresAt(hostId, false);
  };
  return {
    connected: (hostId) => local.connected(hostId),
    disconnected: (hostId) => local.disconnected(hostId),
    graceExpiresAt,
    runtimeOf(hostId, online, status): ThreadRuntime {
      const expiresAt = graceExpiresAt(hostId, online);
      if (expiresAt === null) return { displayStatus: status, hostReconnectGraceExpiresAt: null };
      if (now() < expiresAt) return { displayStatus: 'host-reconnecting', hostReconnectGraceExpiresAt: expiresAt };
      return { displayStatus: 'waiting-for-host', hostReconnectGraceExpiresAt: null };
    },
  };
}
