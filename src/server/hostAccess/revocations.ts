import { Subject, type Observable } from 'rxjs';

/**
 * Hosts removed with `DELETE /hosts/:id`, for whoever holds their links: the daemon link route closes a
 * removed host's sockets as it hears of one. On one server that is this process; with replicas, every
 * replica hears it (`broadcast`: a PostgreSQL NOTIFY, src/server/replicas/startReplica.ts).
 */
export interface HostRevocations {
  readonly revoked$: Observable<string>;
  /**
   * Fires when revocations may have been missed (the database listener reconnected: a NOTIFY sent while it
   * was down is lost): holders check their links against the registry once more.
   */
  readonly recheck$: Observable<void>;
  /** Closes this process's links of the host at once, then tells the other replicas. */
  announce(hostId: string): Promise<void>;
}

export interface HostRevocationsHub extends HostRevocations {
  /** A revocation heard from another replica (or this one's own NOTIFY coming back: harmless twice). */
  heard(hostId: string): void;
  mayHaveMissed(): void;
}

export function createHostRevocations(broadcast?: (hostId: string) => Promise<void>): HostRevocationsHub {
  const revoked = new Subject<string>();
  const recheck = new Subject<void>();
  return {
    revoked$: revoked.asObservable(),
    recheck$: recheck.asObservable(),
    async announce(hostId) {
      revoked.next(hostId);
      await broadcast?.(hostId);
    },
    heard: (hostId) => revoked.next(hostId),
    mayHaveMissed: () => recheck.next(),
  };
}
