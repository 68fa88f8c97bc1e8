import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createMemoryEventStore } from '../../src/store/memoryEventStore';
import { openNedbEventStore } from '../../src/store/nedb/nedbEventStore';
import { openPostgresDatabase } from '../../src/store/postgres/openPostgres';
import { createPostgresEventStore } from '../../src/store/postgres/postgresEventStore';
import { describeWithPostgres } from '../helpers/store/postgresDatabase';
import { describeEventStoreContract } from './eventStoreContract';

describeEventStoreContract('memory', async () => ({ store: createMemoryEventStore() }), { durable: false });

describeEventStoreContract(
  'nedb',
  async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'store-contract-'));
    let store = await openNedbEventStore({ dataDir });
    return {
      store,
      async reopen() {
        await store.close();
        store = await openNedbEventStore({ dataDir });
        return store;
      },
      cleanup: () => rm(dataDir, { recursive: true, force: true }),
    };
  },
  { durable: true },
);

describeWithPostgres('PostgreSQL event store', (db) => {
  describeEventStoreContract(
    'PostgreSQL',
    async () => {
      const open = async () => {
        const database = await openPostgresDatabase({ url: db().url, max: 4 });
        return createPostgresEventStore({ pool: database.pool, origin: 'contract' });
      };
      let store = await open();
      return {
        store,
        async reopen() {
          await store.close();
          store = await open();
          return store;
        },
      };
    },
    { durable: true },
  );
});
