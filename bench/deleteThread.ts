/**
 * `npm run bench:delete-thread`: how long `deleteThread` takes on a 100k-row thread of the embedded store
 * (issue 28's goal: ≤ 1 s, the disk space of its rows released), with a second thread's rows kept.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openNedbEventStore } from '../src/store/nedb/nedbEventStore';
import type { NewThreadEvent } from '../src/store/eventStore';

const ROWS = Number(process.env.ROWS ?? 100_000);
const BATCH = 1_000;

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-delete-'));
  try {
    const store = await openNedbEventStore({ dataDir });
    const row = (threadId: string, n: number): NewThreadEvent => ({
      threadId,
      type: 'item/agentMessage/delta',
      turnId: 'turn-1',
      scope: { kind: 'turn', turnId: 'turn-1' },
      data: { providerThreadId: 'bench', itemId: 'item-1', delta: `token ${n} of a long answer` },
    });
    for (let n = 0; n < ROWS; n += BATCH) await store.append(Array.from({ length: BATCH }, (_, i) => row('thr_big', n + i)));
    await store.append([row('thr_kept', 0)]);
    await store.list('thr_big', { afterSeq: ROWS - 10 }); // held open in memory, as a thread being read is
    const file = store.threadFilePath('thr_big');
    const bytes = (await stat(file)).size;
    const started = process.hrtime.bigint();
    await store.deleteThread('thr_big');
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const gone = await stat(file).then(
      () => false,
      () => true,
    );
    const kept = (await store.list('thr_kept')).length;
    await store.close();
    console.log(
      `deleteThread: ${ROWS} rows (${(bytes / 1024 / 1024).toFixed(1)} MiB) in ${ms.toFixed(1)} ms (goal ≤ 1000 ms); ` +
        `file removed: ${gone}; other thread kept: ${kept === 1}`,
    );
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

void main();
