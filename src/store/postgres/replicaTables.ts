import type { Pool } from 'pg';

/** Channel a replica announces host presence changes on (payload: the host id), sent at commit. */
export const HOSTS_CHANNEL = 'ats_hosts';

/** Channel a replica announces a removed host on (payload: the host id): every replica closes its links. */
export const HOST_REVOKED_CHANNEL = 'ats_host_revoked';

/** A host as the shared presence table and the replicas' heartbeats say it is. */
export interface HostPlacement {
  hostId: string;
  replicaId: string;
  /** Where that replica takes forwarded host commands. */
  replicaUrl: string;
  /** Attached to a live replica right now. */
  online: boolean;
  /** Epoch ms when it left: its detach, else its replica's stop, else that replica's last heartbeat. */
  leftAtMs: number | null;
}

/** The SQL of migration 003's tables: replica rows, heartbeats, and which replica holds each host. */
export function replicaTables(pool: Pool) {
  return {
    async register(replicaId: string, url: string): Promise<void> {
      await pool.query(
        'INSERT INTO replicas (id, url) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET url = EXCLUDED.url, heartbeat_at = now(), stopped_at = NULL',
        [replicaId, url],
      );
    },
    async heartbeat(replicaId: string): Promise<void> {
      await pool.query('UPDATE replicas SET heartbeat_at = now() WHERE id = $1', [replicaId]);
    },
    async stop(replicaId: string): Promise<void> {
      await pool.query('UPDATE replicas SET stopped_at = now() WHERE id = $1', [replicaId]);
    },
    /** Rows of replicas gone for longer than `olderThanMs`, whose hosts have since moved or been seen leaving. */
    async forgetStopped(olderThanMs: number): Promise<void> {
      await pool.query(
        `DELETE FROM replicas r WHERE coalesce(r.stopped_at, r.heartbeat_at) < now() - make_interval(secs => $1::double precision / 1000)
           AND NOT EXISTS (SELECT 1 FROM host_presence p WHERE p.replica_id = r.id)`,
        [olderThanMs],
      );
    },
    async revoked(hostId: string): Promise<void> {
      await pool.query('SELECT pg_notify($1, $2)', [HOST_REVOKED_CHANNEL, hostId]);
    },
    async attached(hostId: string, replicaId: string): Promise<void> {
      await pool.query(
        `WITH up AS (
           INSERT INTO host_presence (host_id, replica_id, attached_at) VALUES ($1, $2, now())
           ON CONFLICT (host_id) DO UPDATE SET replica_id = EXCLUDED.replica_id, attached_at = EXCLUDED.attached_at, detached_at = NULL
           RETURNING host_id)
         SELECT pg_notify('${HOSTS_CHANNEL}', host_id) FROM up`,
        [hostId, replicaId],
      );
    },
    async detached(hostId: string, replicaId: string): Promise<void> {
      await pool.query(
        `WITH down AS (
           UPDATE host_presence SET detached_at = now() WHERE host_id = $1 AND replica_id = $2 AND detached_at IS NULL RETURNING host_id)
         SELECT pg_notify('${HOSTS_CHANNEL}', host_id) FROM down`,
        [hostId, replicaId],
      );
    },
    /** Every host's placement; a replica silent for `deadAfterMs` (by the database's clock) is dead. */
    async placements(deadAfterMs: number): Promise<HostPlacement[]> {
      const { rows } = await pool.query<{
        host_id: string;
        replica_id: string;
        url: string | null;
        online: boolean;
        left_at_ms: string | null;
      }>(
        `SELECT p.host_id, p.replica_id, r.url,
           (p.detached_at IS NULL AND r.stopped_at IS NULL AND r.heartbeat_at > now() - make_interval(secs => $1::double precision / 1000)) AS online,
           (extract(epoch FROM coalesce(p.detached_at, r.stopped_at, r.heartbeat_at, p.attached_at)) * 1000)::bigint AS left_at_ms
         FROM host_presence p LEFT JOIN replicas r ON r.id = p.replica_id`,
        [deadAfterMs],
      );
      return rows.map((row) => ({
        hostId: row.host_id,
        replicaId: row.replica_id,
        replicaUrl: row.url ?? '',
        online: row.online === true,
        leftAtMs: row.online ? null : Number(row.left_at_ms),
      }));
    },
  };
}
export type ReplicaTables = ReturnType<typeof replicaTables>;
