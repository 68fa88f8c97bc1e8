import type { HostPlacement, ReplicaTables } from '../../store/postgres/replicaTables';

/**
 * Where every host is, as the shared presence table says, kept in memory so the synchronous questions of the
 * host directory (`isOnline`, `linkOf`) need no query. Refreshed on every `ats_hosts` notification and on a
 * timer (the heartbeat interval), so a replica's death shows up here within its dead-after time plus one tick.
 */
export interface PresenceBoard {
  placementOf(hostId: string): HostPlacement | undefined;
  refresh(): Promise<void>;
}

export function createPresenceBoard(tables: ReplicaTables, deadAfterMs: number, log: (message: string) => void): PresenceBoard {
  let placements = new Map<string, HostPlacement>();
  let running: Promise<void> | undefined;
  let again = false;

  const load = async () => {
    try {
      placements = new Map((await tables.placements(deadAfterMs)).map((placement) => [placement.hostId, placement]));
    } catch (error) {
      log(`host presence refresh failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  // One refresh at a time; a request during one runs once more after it, so the last change is always read.
  const refresh = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await load();
      } while (again);
      running = undefined;
    })();
    return running;
  };

  return { placementOf: (hostId) => placements.get(hostId), refresh };
}
