import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { openPostgresDatabase, type PostgresDatabase } from '../../src/store/postgres/openPostgres';
import { openPostgresRegistry } from '../../src/registry/postgresRegistry';
import { openRegistry, type Registry } from '../../src/registry/registry';
import type { ThreadRecord } from '../../src/registry/records';
import { describeWithPostgres } from '../helpers/store/postgresDatabase';

function thread(id: string, fields: Partial<ThreadRecord> = {}): ThreadRecord {
  return {
    id,
    projectId: 'proj_1',
    environmentId: 'env_1',
    hostId: 'host_1',
    provider: 'pi',
    model: 'm',
    title: 't',
    createdAt: '2026-01-01T00:00:00.000Z',
    ...fields,
  };
}

/** What the server relies on from a registry, whichever store holds it. */
function describeRegistry(name: string, open: () => Promise<{ registry: Registry; cleanup(): Promise<void> }>): void {
  describe(`registry collections: ${name}`, () => {
    let opened: { registry: Registry; cleanup(): Promise<void> };
    beforeEach(async () => (opened = await open()));
    afterEach(async () => {
      await opened.registry.close();
      await opened.cleanup();
    });

    it('inserts, gets and replaces records by id; refuses a second insert of one id', async () => {
      const { threads } = opened.registry;
      const record = thread('thr_a', { title: 'nul \u0000 and ✓' });
      await threads.insert(record);
      expect(await threads.get('thr_a')).to.deep.equal(record);
      expect(await threads.get('thr_missing')).to.equal(undefined);
      let refused = false;
      await threads.insert(record).catch(() => (refused = true));
      expect(refused).to.equal(true);
      await threads.put({ ...record, providerThreadId: 'session-1' });
      expect((await threads.get('thr_a'))?.providerThreadId).to.equal('session-1');
    });

    it('gives each reader its own copy: changing a record read back changes nothing stored', async () => {
      const { threads } = opened.registry;
      const record = thread('thr_a', { agentError: { code: 'no_key', message: 'no key', at: '2026-01-01T00:00:00.000Z' } });
      await threads.insert(record);
      const read = (await threads.get('thr_a'))!;
      read.title = 'changed';
      read.agentError!.message = 'changed';
      const [found] = await threads.find({ id: 'thr_a' });
      found!.model = 'changed';
      expect(await threads.get('thr_a')).to.deep.equal(record);
      expect(await threads.find({ id: 'thr_a' })).to.deep.equal([record]);
      record.title = 'changed by the writer after the insert';
      expect((await threads.get('thr_a'))!.title).to.equal('t');
    });

    it('keeps the first record when a second insert of its id is refused', async () => {
      const { threads } = opened.registry;
      await threads.insert(thread('thr_a'));
      await threads.insert(thread('thr_a', { title: 'second' })).catch(() => undefined);
      expect((await threads.get('thr_a'))!.title).to.equal('t');
    });

    it('hides a thread marked deleting from get and find, lists it as one to finish, and removes it for good', async () => {
      const { threads } = opened.registry;
      await threads.insert(thread('thr_a'));
      await threads.insert(thread('thr_b'));
      await threads.markDeleting('thr_a');
      expect(await threads.get('thr_a')).to.equal(undefined);
      expect((await threads.find({})).map((record) => record.id)).to.deep.equal(['thr_b']);
      expect((await threads.deleting()).map((record) => record.id)).to.deep.equal(['thr_a']);
      // A change that read the record before the mark (a prompt finishing) must not bring it back.
      await threads.put(thread('thr_a', { title: 'late write' }));
      expect(await threads.get('thr_a')).to.equal(undefined);
      await threads.remove('thr_a');
      await threads.put(thread('thr_a', { title: 'later write' }));
      expect(await threads.get('thr_a')).to.equal(undefined);
      expect(await threads.deleting()).to.deep.equal([]);
      expect(await threads.get('thr_b')).to.deep.equal(thread('thr_b'));
    });

    it('hands a record taken by several callers at once to one of them only: a one-time code is used once (issue 30)', async () => {
      const { enrollments } = opened.registry;
      await enrollments.insert({ id: 'code-hash', expiresAt: 1, createdAt: '2026-01-01T00:00:00.000Z' });
      const taken = await Promise.all([1, 2, 3, 4].map(() => enrollments.take('code-hash')));
      expect(taken.filter((record) => record !== undefined)).to.have.length(1);
      expect(await enrollments.get('code-hash')).to.equal(undefined);
      expect(await enrollments.take('code-hash')).to.equal(undefined);
    });

    it('updates only a record that is there: a removed host is not brought back by its link’s late close (issue 30)', async () => {
      const { hosts } = opened.registry;
      const host = {
        id: 'host_a',
        name: 'a',
        platform: 'linux',
        protocolVersion: 1,
        providers: [],
        lastSeenAt: '2026-01-01T00:00:00.000Z',
      };
      expect(await hosts.update(host)).to.equal(false);
      expect(await hosts.get('host_a')).to.equal(undefined);
      await hosts.put(host);
      expect(await hosts.update({ ...host, lastSeenAt: '2026-01-02T00:00:00.000Z' })).to.equal(true);
      expect((await hosts.get('host_a'))!.lastSeenAt).to.equal('2026-01-02T00:00:00.000Z');
    });

    it('finds by fields, in createdAt then id order', async () => {
      const { threads } = opened.registry;
      await threads.insert(thread('thr_c', { createdAt: '2026-01-02T00:00:00.000Z' }));
      await threads.insert(thread('thr_b', { createdAt: '2026-01-01T00:00:00.000Z', hostId: 'host_2' }));
      await threads.insert(thread('thr_a', { createdAt: '2026-01-02T00:00:00.000Z' }));
      expect((await threads.find()).map((t) => t.id)).to.deep.equal(['thr_b', 'thr_a', 'thr_c']);
      expect((await threads.find({ hostId: 'host_1' })).map((t) => t.id)).to.deep.equal(['thr_a', 'thr_c']);
      expect((await threads.find({ hostId: 'host_1', projectId: 'proj_other' })).map((t) => t.id)).to.deep.equal([]);
    });

    it('keeps review comments and finds a thread’s by its id, in the order written (issue 38)', async () => {
      const { reviewComments } = opened.registry;
      const comment = (id: string, threadId: string, createdAt: string) =>
        ({
          id,
          threadId,
          path: 'a.ts',
          line: 3,
          side: 'new',
          text: 'why?',
          snippet: 'x',
          scope: 'uncommitted',
          state: 'draft',
          createdAt,
        }) as const;
      await reviewComments.insert(comment('rc_b', 'thr_1', '2026-01-02T00:00:00.000Z'));
      await reviewComments.insert(comment('rc_a', 'thr_1', '2026-01-01T00:00:00.000Z'));
      await reviewComments.insert(comment('rc_c', 'thr_2', '2026-01-01T00:00:00.000Z'));
      expect((await reviewComments.find({ threadId: 'thr_1' })).map((c) => c.id)).to.deep.equal(['rc_a', 'rc_b']);
      await reviewComments.update({ ...comment('rc_a', 'thr_1', '2026-01-01T00:00:00.000Z'), state: 'sent' });
      expect((await reviewComments.get('rc_a'))?.state).to.equal('sent');
      await reviewComments.remove('rc_b');
      expect((await reviewComments.find({ threadId: 'thr_1' })).map((c) => c.id)).to.deep.equal(['rc_a']);
    });
  });
}

describeRegistry('nedb', async () => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'registry-'));
  return { registry: await openRegistry({ dataDir }), cleanup: () => rm(dataDir, { recursive: true, force: true }) };
});

describe('registry collections: nedb, reopened', () => {
  it('finds every record as last written after the registry is closed and opened again', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'registry-'));
    try {
      const first = await openRegistry({ dataDir });
      await first.threads.insert(thread('thr_a'));
      await first.threads.insert(thread('thr_b'));
      await first.threads.put(thread('thr_a', { providerThreadId: 'session-1' }));
      await first.close();
      const second = await openRegistry({ dataDir });
      expect(await second.threads.get('thr_a')).to.deep.equal(thread('thr_a', { providerThreadId: 'session-1' }));
      expect(await second.threads.get('thr_b')).to.deep.equal(thread('thr_b'));
      await second.close();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describeWithPostgres('registry in PostgreSQL', (db) => {
  describeRegistry('PostgreSQL', async () => {
    const database: PostgresDatabase = await openPostgresDatabase({ url: db().url, max: 2 });
    const registry = openPostgresRegistry(database.pool);
    return {
      registry,
      async cleanup() {
        await database.pool.query(
          'TRUNCATE registry_projects, registry_hosts, registry_environments, registry_threads, registry_enrollments, registry_host_credentials',
        );
        await database.close();
      },
    };
  });
});
