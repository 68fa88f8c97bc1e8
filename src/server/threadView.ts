import type { HostPresence } from '../hosts/hostPresence';
import type { ThreadRecord } from '../registry/records';
import type { HostDirectory } from './hostDirectory';

/** Spec 2.4: `status` from the daemon's ingest, `runtime` for display. */
export type ThreadView = ThreadRecord & {
  status: 'active' | 'idle';
  runtime: { displayStatus: string; hostReconnectGraceExpiresAt: number | null };
};

/**
 * Status is never recomputed here: the host's pipeline knows whether a turn is open. While a host is away
 * the last status it reported is shown and `displayStatus` says `host-reconnecting` during the reconnect
 * grace, `waiting-for-host` after it (src/hosts/hostPresence.ts).
 */
export function createThreadViewer(hosts: HostDirectory, presence?: HostPresence): (thread: ThreadRecord) => Promise<ThreadView> {
  const lastStatus = new Map<string, 'active' | 'idle'>();
  return async (thread) => {
    if (!hosts.isOnline(thread.hostId)) {
      const status = lastStatus.get(thread.id) ?? 'idle';
      const runtime = presence ? presence.runtimeOf(thread.hostId, false, status) : { displayStatus: 'waiting-for-host', hostReconnectGraceExpiresAt: null };
      return { ...thread, status, runtime };
    }
    const { status } = await hosts.call(thread.hostId, 'thread.status', { threadId: thread.id });
    lastStatus.set(thread.id, status);
    return { ...thread, status, runtime: { displayStatus: status, hostReconnectGraceExpiresAt: null } };
  };
}
