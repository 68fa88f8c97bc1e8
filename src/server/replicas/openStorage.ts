import path from 'node:path';
import { openPostgresRegistry } from '../../registry/postgresRegistry';
import { openRegistry, type Registry } from '../../registry/registry';
import { lockDataDir } from '../../store/dataDirLock';
import type { EventStore } from '../../store/eventStore';
import { openNedbEventStore } from '../../store/nedb/nedbEventStore';
import type { FsyncMode } from '../../store/fsyncMode';
import { openPostgresDatabase, type PostgresDatabase } from '../../store/postgres/openPostgres';
import { createPostgresEventStore, type PostgresEventStore } from '../../store/postgres/postgresEventStore';
import { redactedUrl } from '../../store/postgres/postgresPool';
import { openSqliteSearchIndex } from '../../store/search/sqlite/sqliteSearchIndex';
import { indexedStore } from '../../store/search/indexedStore';
import { createPostgresSearchIndex } from '../../store/search/postgresSearchIndex';
import type { SearchIndex } from '../../store/search/searchIndex';

export interface Storage {
  store: EventStore;
  registry: Registry;
  /** The full-text index the store keeps up as rows are stored (docs/search.md). */
  search: SearchIndex;
  /** Set with a database URL: what the replica machinery needs. */
  postgres?: { database: PostgresDatabase; store: PostgresEventStore };
  /** After the store and registry are closed: the pool and the data-dir lock. */
  close(): Promise<void>;
}

/**
 * The event store and the registry: nedb files in the data dir (one server), or PostgreSQL (`databaseUrl`,
 * several servers). The data dir is locked either way: it holds the token and the embedded daemon's identity,
 * which two processes must not share.
 */
export interface StorageOptions {
  dataDir: string;
  databaseUrl?: string;
  databasePoolMax: number;
  /** Connections that hold thread locks (issue 37), apart from `databasePoolMax`. */
  databaseLockPoolMax?: number;
  fsync?: FsyncMode;
  replicaId: string;
  log(message: string): void;
}

export async function openStorage(options: StorageOptions): Promise<Storage> {
  if (!options.databaseUrl) {
    const { dataDir, fsync, log } = options;
    const search = await openSqliteSearchIndex({ dataDir, log });
    const store = indexedStore(await openNedbEventStore({ dataDir, fsync, log }), search);
    const registry = await openRegistry({ dataDir, fsync });
    return { store, registry, search, close: async () => {} };
  }
  const lock = await lockDataDir(path.resolve(options.dataDir));
  try {
    const database = await openPostgresDatabase({
      url: options.databaseUrl,
      max: options.databasePoolMax,
      lockMax: options.databaseLockPoolMax,
      applicationName: `agent-thread-service ${options.replicaId}`,
      log: options.log,
    });
    if (database.applied.length > 0)
      options.log(`database ${redactedUrl(options.databaseUrl)}: applied migrations ${database.applied.join(', ')}`);
    const search = createPostgresSearchIndex(database.pool, options.log);
    const store = indexedStore(createPostgresEventStore({ pool: database.pool, origin: options.replicaId, ownsPool: false }), search);
    return {
      store,
      registry: openPostgresRegistry(database.pool, database.lockPool),
      search,
      postgres: { database, store },
      async close() {
        await database.close();
        await lock.release();
      },
    };
  } catch (error) {
    await lock.release();
    throw error;
  }
}
