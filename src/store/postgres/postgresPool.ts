import { Pool, type PoolConfig } from 'pg';

export interface PostgresPoolOptions {
  /** `postgres://user@host:port/db` (ATS_DATABASE_URL). */
  url: string;
  /** Connections this process holds at most; each replica opens its own pool (docs/replicas.md). */
  max?: number;
  /** Named in `pg_stat_activity`, so an operator can tell the replicas' connections apart. */
  applicationName?: string;
  log?(message: string): void;
}

/** Default pool size: an append holds a connection for one statement; reads and presence share the rest. */
export const DEFAULT_POOL_MAX = 10;

/**
 * A pool of the `pg` client (chosen over `postgres` by bench/pgClients.ts, docs/replicas.md). An idle
 * connection that the server drops (a restart, a failover) is logged and replaced on the next query instead
 * of ending the process, which is what an unhandled pool `error` would do.
 */
export function openPostgresPool(options: PostgresPoolOptions): Pool {
  const config: PoolConfig = {
    connectionString: options.url,
    max: options.max ?? DEFAULT_POOL_MAX,
    application_name: options.applicationName ?? 'agent-thread-service',
  };
  const pool = new Pool(config);
  pool.on('error', (error) => options.log?.(`postgres: idle connection failed: ${error.message}`));
  return pool;
}

/** `postgres://u@h:5432/db` with the password (if any) replaced, for logs. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'an unparsable database URL';
  }
}
