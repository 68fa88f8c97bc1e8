import type { HostDirectory } from './hostDirectory';
import type { HostPresence } from './hostPresence';

/**
 * The host directory, telling `presence` when each host's link comes and goes, whatever the transport
 * (embedded, WebSocket). A link replaced by a newer one of the same host is not a departure: the directory
 * has already forgotten a closed link when its `closed$` completes, so "still online" means replaced.
 */
export function withPresence(hosts: HostDirectory, presence: HostPresence): HostDirectory {
  return {
    ...hosts,
    async attach(link) {
      const record = await hosts.attach(link);
      presence.connected(record.id);
      link.closed$.subscribe({ complete: () => hosts.isOnline(record.id) || presence.disconnected(record.id) });
      return record;
    },
  };
}
