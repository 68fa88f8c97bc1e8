/**
 * The child process of the event store's crash tests (test/store/eventStoreCrash.test.ts), killed with
 * SIGKILL at random moments. `ingest <dataDir> <runId>`: appends forever, several appends in flight, and
 * prints `ack <threadId>/<seq>/<token> …` once an append is acked. `open <dataDir>`: opens the store (which
 * migrates a data dir of the one-file layout), prints `opened`, closes and exits.
 */
import type { NewThreadEvent } from '../../../src/store/eventStore';
import { openNedbEventStore } from '../../../src/store/nedb/nedbEventStore';
import { FsyncModeSchema } from '../../../src/store/fsyncMode';

const [mode, dataDir, runId = 'run'] = process.argv.slice(2);
const THREADS = 12;
const IN_FLIGHT = 8;

async function main(): Promise<void> {
  process.stdout.write('opening\n');
  const store = await openNedbEventStore({
    dataDir: dataDir!,
    fsync: FsyncModeSchema.parse(process.env['ATS_FSYNC'] ?? 'batch'),
    // Small, so a migration records its progress many times and a kill lands between records.
    migrationBufferBytes: Number(process.env['CRASH_MIGRATION_BUFFER_BYTES']) || undefined,
  });
  process.stdout.write(`opened ${JSON.stringify(store.migration ?? null)}\n`);
  if (mode === 'open') {
    await store.close();
    return;
  }
  let counter = 0;
  const appendOne = async (): Promise<void> => {
    const size = 1 + (counter % 7);
    const events = Array.from({ length: size }, (): NewThreadEvent => {
      const token = `${runId}-${counter++}`;
      const threadId = `thr_${(counter * 7919) % THREADS}`;
      return {
        threadId,
        type: 'item/agentMessage/delta',
        turnId: 'turn',
        scope: { kind: 'turn', turnId: 'turn' },
        data: { providerThreadId: threadId, itemId: 'item', delta: token.padEnd(200 + (counter % 900), '.') },
      } as NewThreadEvent;
    });
    const rows = await store.append(events);
    process.stdout.write(
      `ack ${rows.map((row) => `${row.threadId}/${row.seq}/${String(row.data['delta']).replace(/\.+$/, '')}`).join(' ')}\n`,
    );
  };
  const lane = async (): Promise<void> => {
    for (;;) await appendOne();
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
