import type { Observable, Subscription } from 'rxjs';
import type { HostChange } from './hostDirectory';
import type { ThreadStatus } from '../../protocol/threadEvents';

/** `runtime` of a thread (spec 2.4), as the API shows it. */
export interface ThreadRuntime {
  displayStatus: ThreadStatus | 'host-reconnecting' | 'waiting-for-host';
  /** Epoch ms until which the host is expected back; null while it is connected or once the grace ran out. */
  hostReconnectGraceExpiresAt: number | null;
}

/** Default of `hostReconnectGraceMs`: a laptop changing networks or a daemon restart fits well inside it. */
export const DEFAULT_HOST_RECONNECT_GRACE_MS = 60_000;

/**
 * When each host's link dropped, so a thread on an absent host can say whether its host is probably coming
 * back (`host-reconnecting`, until the grace expires) or not (`waiting-for-host`). Online/offline itself
 * comes from the host directory; this only remembers the moments of leaving.
 */
export interface HostPresence {
  connected(hostId: string): void;
  disconnected(hostId: string): void;
  /** `status` is what the host's pipeline last reported for the thread. */
  runtimeOf(hostId: string, online: boolean, status: ThreadStatus): ThreadRuntime;
  /** Null while online; for an offline host, when its grace ends (maybe already past). */
  graceExpiresAt(hostId: string, online: boolean): number | null;
}

export interface HostPresenceOptions {
  graceMs?: number;
  now?(): number;
}

export function createHostPresence(options: HostPresenceOptions = {}): HostPresence {
  const graceMs = options.graceMs ?? DEFAULT_HOST_RECONNECT_GRACE_MS;
  const now = options.now ?? Date.now;
  // A host never seen leaving this process left when the server stopped: its grace runs from our start,
  // so daemons that reconnect right after a server restart read as reconnecting, not lost.
  const startedAt = now();
  const leftAt = new Map<string, number>();

  const graceExpiresAt = (hostId: string, online: boolean): number | null => (online ? null : (leftAt.get(hostId) ?? startedAt) + graceMs);

  return {
    connected: (hostId) => leftAt.delete(hostId),
    disconnected: (hostId) => leftAt.set(hostId, now()),
    graceExpiresAt,
    runtimeOf(hostId, online, status) {
      const expiresAt = graceExpiresAt(hostId, online);
      if (expiresAt === null) return { displayStatus: status, hostReconnectGraceExpiresAt: null };
      if (now() < expiresAt) return { displayStatus: 'host-reconnecting', hostReconnectGraceExpiresAt: expiresAt };
      return { displayStatus: 'waiting-for-host', hostReconnectGraceExpiresAt: null };
    },
  };
}

/** Keeps `presence` in step with the host directory's links, whatever the transport (embedded, WebSocket). */
export function trackPresence(changes$: Observable<HostChange>, presence: HostPresence): Subscription {
  return changes$.subscribe((change) =>
    change.kind === 'attached' ? presence.connected(change.host.id) : presence.disconnected(change.hostId),
  );
}
