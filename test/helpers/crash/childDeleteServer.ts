/**
 * The server process of the delete crash test (test/server/threadDeleteCrash.test.ts): the real server (same
 * flags and env as `npm start`, the fake `pi` provider), with a hook that SIGKILLs the process itself at one
 * named step of the first `DELETE /threads/:id` it serves, when `CRASH_DELETE_AT` names one (DELETE_STEPS).
 * The hook wraps the live registry, host directory, hub and store the routes use, so the server's own code
 * runs unchanged up to the kill. Prints `listening on URL`, then `no deletes left` once the deletes an earlier
 * run left unfinished are done (`finishDeletes` at start), and `killing at <step>` just before a kill.
 */
import './transpileCache';
import { promises as fs } from 'node:fs';
import { loadConfig } from '../../../src/config/serverConfig';
import { startServer, type RunningServer } from '../../../src/server/startServer';
import type { NedbEventStore } from '../../../src/store/nedb/nedbEventStore';
import { fakeProvider } from '../fakes/provider';
import { isDeleteStep, type DeleteStep } from './deleteSteps';

async function main(): Promise<void> {
  const config = loadConfig(process.argv.slice(2), process.env);
  const server = await startServer({ config, providers: [fakeProvider('pi')], log: (message) => console.error(message) });
  const step = process.env['CRASH_DELETE_AT'];
  if (step !== undefined) {
    if (!isDeleteStep(step)) throw new Error(`unknown CRASH_DELETE_AT ${step}`);
    killAt(server, step);
  }
  console.log(`listening on ${server.url}`);
  while ((await server.registry.threads.deleting()).length > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  console.log('no deletes left');
}

/** Arms the kill: the first thread marked deleting is the one whose steps count (a start's `finishDeletes` marks none). */
function killAt(server: RunningServer, step: DeleteStep): void {
  let target: string | undefined;
  const kill = (at: DeleteStep, threadId: string) => {
    if (at !== step || threadId !== target) return;
    process.stdout.write(`killing at ${at}\n`);
    process.kill(process.pid, 'SIGKILL');
  };
  const threads = server.registry.threads;
  const { markDeleting, remove } = threads;
  threads.markDeleting = async (id) => {
    target ??= id;
    kill('before-tombstone', id);
    await markDeleting(id);
    kill('tombstoned', id);
  };
  threads.remove = async (id) => {
    await remove(id);
    kill('record-removed', id);
  };
  const call = server.hosts.call.bind(server.hosts);
  server.hosts.call = ((hostId, method, params, options) => {
    const answer = call(hostId, method, params, options);
    if (method !== 'thread.delete') return answer;
    const threadId = (params as { threadId: string }).threadId;
    return answer.finally(() => kill('host-told', threadId));
  }) as typeof server.hosts.call;
  const announceDeleted = server.hub.announceDeleted.bind(server.hub);
  server.hub.announceDeleted = (threadId) => {
    announceDeleted(threadId);
    kill('readers-told', threadId);
  };
  const deleteThread = server.store.deleteThread.bind(server.store);
  server.store.deleteThread = async (threadId) => {
    await deleteThread(threadId);
    kill('store-deleted', threadId);
  };
  // The embedded store: right after its thread file is unlinked, before the unlink is synced and the index forgets it.
  const nedb = server.store as Partial<NedbEventStore>;
  if (nedb.threadFilePath) {
    const rm = fs.rm;
    fs.rm = async (file, options) => {
      await rm(file, options);
      if (target !== undefined && file === nedb.threadFilePath!(target)) kill('store-unlinked', target);
    };
  }
}

main().catch((error: unknown) => {
  console.error(`failed: ${(error as Error).stack ?? String(error)}`);
  process.exit(1);
});
