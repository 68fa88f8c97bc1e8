import { expect } from 'chai';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { openRegistry } from '../../src/registry/registry';
import { openNedbEventStore } from '../../src/store/nedb/nedbEventStore';
import { EVENTS_DIR_NAME, threadFileOf } from '../../src/store/nedb/segments/segmentLayout';
import { crashRandom } from '../helpers/crash/harness';
import { DELETE_STEPS, type DeleteStep } from '../helpers/crash/deleteSteps';
import {
  expectWholeOrGone,
  startDeleteCrashServer,
  threadWithRows,
  type CrashedThread,
  type DeleteCrashServer,
} from '../helpers/crash/deleteCrashRuns';
import { describeWithPostgres } from '../helpers/store/postgresDatabase';
import { suiteTempDirs } from '../helpers/temp/suiteDirs';

/** Where a store keeps a thread's rows, read from outside the server process while it runs. */
interface StoreProbe {
  /** What is left of a gone thread: rows, its head, its nedb file, its registry record; empty when nothing. */
  leftOf(threadId: string): Promise<string[]>;
  /** After the last run, with no server on the data dir. */
  finalCheck?(gone: readonly CrashedThread[], whole: readonly CrashedThread[]): Promise<void>;
}

const RANDOM_KILLS = 4;

/**
 * Issue 28: "a SIGKILL at each step of [a delete] (the thread is whole or gone after restart)". Each run
 * starts the server on the same data dir, checks every thread an earlier run's kill cut a delete of, makes a
 * thread with rows (an open turn, renames), deletes it and dies: at a named step (the child kills itself
 * there, test/helpers/crash/childDeleteServer.ts), then at random moments from this side.
 */
function deleteCrashSuite(options: {
  dataDir(): Promise<string>;
  databaseUrl?(): string;
  probe(dataDir: string): StoreProbe;
  steps: readonly DeleteStep[];
}) {
  return async function (this: Mocha.Context) {
    this.timeout(120_000);
    const random = crashRandom();
    const dataDir = await options.dataDir();
    const databaseUrl = options.databaseUrl?.();
    const probe = options.probe(dataDir);
    const crashed: CrashedThread[] = [];
    let projectId: string | undefined;
    const runs: Array<{ killAt?: DeleteStep; delayMs?: number }> = [
      ...options.steps.map((killAt) => ({ killAt })),
      ...Array.from({ length: RANDOM_KILLS }, () => ({ delayMs: random.between(0, 80) })),
      {}, // the last start only checks
    ];
    const found = new Map<string, 'whole' | 'gone'>();
    for (const run of runs) {
      const server = await startDeleteCrashServer({ dataDir, databaseUrl, killAt: run.killAt });
      try {
        for (const thread of crashed) {
          const state = await expectWholeOrGone(server, thread);
          found.set(thread.id, state);
          if (state === 'gone') expect(await probe.leftOf(thread.id), `${thread.context}: left in the store`).to.deep.equal([]);
        }
        if (run.killAt === undefined && run.delayMs === undefined) break;
        projectId ??= await newProject(server, dataDir);
        const context = run.killAt ? `killed at ${run.killAt}` : `killed ${run.delayMs} ms into the delete (${random.describe()})`;
        const thread = await threadWithRows(server, projectId, context);
        const answered = await deleteAndDie(server, thread.id, run);
        if (run.killAt) expect(server.child.lines, context).to.include(`killing at ${run.killAt}`);
        const expected = run.killAt === undefined ? 'either' : run.killAt === 'before-tombstone' ? 'whole' : 'gone';
        crashed.push({ ...thread, expected, answered, context });
      } finally {
        await server.child.kill();
      }
    }
    const gone = crashed.filter((thread) => found.get(thread.id) === 'gone');
    await probe.finalCheck?.(
      gone,
      crashed.filter((thread) => found.get(thread.id) === 'whole'),
    );
    expect(gone.length, 'threads gone').to.be.at.least(options.steps.length - 1);
  };
}

async function newProject(server: DeleteCrashServer, dataDir: string): Promise<string> {
  const [host] = await server.json('/hosts');
  const folder = path.join(dataDir, 'project');
  await fs.mkdir(folder, { recursive: true });
  return (await server.json('/projects', { body: { name: 'p', source: { type: 'local_path', path: folder, hostId: host.id } } })).id;
}

/** Sends the delete; the server dies at its armed step, or is killed `delayMs` after the request. Resolves with whether a 204 came first. */
async function deleteAndDie(server: DeleteCrashServer, threadId: string, run: { delayMs?: number }): Promise<boolean> {
  let answered = false;
  const response = server.call(`/threads/${threadId}`, { method: 'DELETE' }).then(
    (reply) => void (answered = reply.status === 204),
    () => undefined, // the server died first
  );
  if (run.delayMs !== undefined) {
    await Promise.race([response, new Promise((resolve) => setTimeout(resolve, run.delayMs))]);
    const before = answered;
    await server.child.kill();
    return before;
  }
  await server.child.ended;
  await response;
  return answered;
}

describe('server: a SIGKILL at each step of a thread delete leaves the thread whole or gone (issue 28), embedded store', () => {
  const tempDir = suiteTempDirs();
  it(
    'whole when killed before the tombstone, gone from it on (its file and record too), and gone whenever the delete answered 204',
    deleteCrashSuite({
      dataDir: () => tempDir('ats-delete-crash-'),
      steps: DELETE_STEPS,
      probe: (dataDir) => ({
        async leftOf(threadId) {
          const file = threadFileOf(path.join(dataDir, EVENTS_DIR_NAME), threadId);
          return (await exists(file)) ? [`thread file ${file}`] : [];
        },
        async finalCheck(gone, whole) {
          const store = await openNedbEventStore({ dataDir });
          const registry = await openRegistry({ dataDir });
          try {
            expect(await registry.threads.deleting(), 'unfinished deletes').to.deep.equal([]);
            for (const thread of gone) {
              expect(await store.list(thread.id), `${thread.context}: rows`).to.deep.equal([]);
              expect(await store.lastSeq(thread.id), `${thread.context}: head`).to.equal(0);
              expect(await registry.threads.get(thread.id), `${thread.context}: record`).to.equal(undefined);
            }
            for (const thread of whole) expect((await store.list(thread.id)).length).to.be.at.least(thread.acked.length);
          } finally {
            await registry.close();
            await store.close();
          }
        },
      }),
    }),
  );
});

describeWithPostgres('server: a SIGKILL at each step of a thread delete leaves the thread whole or gone (issue 28), PostgreSQL', (db) => {
  const tempDir = suiteTempDirs();
  it(
    'whole when killed before the tombstone, gone from it on (rows, head and record), and gone whenever the delete answered 204',
    deleteCrashSuite({
      dataDir: () => tempDir('ats-delete-crash-pg-'),
      databaseUrl: () => db().url,
      steps: DELETE_STEPS.filter((step) => step !== 'store-unlinked'),
      probe: () => ({
        async leftOf(threadId) {
          const client = new Client({ connectionString: db().url });
          await client.connect();
          try {
            const counts = await client.query<{ what: string; n: string }>(
              `SELECT 'rows' AS what, count(*) AS n FROM thread_events WHERE thread_id = $1
               UNION ALL SELECT 'head', count(*) FROM thread_heads WHERE thread_id = $1
               UNION ALL SELECT 'record', count(*) FROM registry_threads WHERE id = $1`,
              [threadId],
            );
            return counts.rows.filter((row) => Number(row.n) > 0).map((row) => `${row.n} ${row.what}`);
          } finally {
            await client.end();
          }
        },
      }),
    }),
  );
});

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}
