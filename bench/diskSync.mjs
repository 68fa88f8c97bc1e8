/**
 * node bench/diskSync.mjs — this disk's own fdatasync latency, the floor under the store's ack path (issue 27's
 * bench:acp tail): appends a ~100-byte line and fdatasyncs it, DISK_SYNC_COUNT times (5,000), one at a time, the
 * way the journal does (FileHandle.write then datasync, on libuv's pool), in a temp folder under os.tmpdir(), where
 * the benches keep their data dirs. Prints p50 / p90 / p99 / p99.9 / max of write+datasync and of datasync alone.
 * Then the journal's group commit alone, paced as bench:acp paces its chunks (DISK_SYNC_PACED lines, 10,000, one a
 * millisecond): a line queued while a write+datasync runs joins the next one; each line's time from queued to
 * synced is the part of bench:acp's latency the disk (and nothing else of the service) accounts for.
 */
import { mkdtemp, open, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const COUNT = Number(process.env.DISK_SYNC_COUNT ?? 5000);
const PACED = Number(process.env.DISK_SYNC_PACED ?? 10_000);
const dir = await mkdtemp(path.join(os.tmpdir(), 'ats-disk-sync-'));
const handle = await open(path.join(dir, 'journal-000001.jsonl'), 'a');
const line = Buffer.from(`${JSON.stringify({ seq: 0, type: 'item/agentMessage/delta', data: { delta: 'x'.repeat(40) } })}\n`);
const total = [];
const syncOnly = [];
try {
  for (let i = 0; i < COUNT; i++) {
    const start = performance.now();
    await handle.write(line);
    const written = performance.now();
    await handle.datasync();
    const end = performance.now();
    total.push(end - start);
    syncOnly.push(end - written);
  }
} finally {
  await handle.close();
}
const paced = [];
const groups = [];
const journal = await open(path.join(dir, 'journal-000002.jsonl'), 'a');
try {
  let queue = [];
  let writing;
  const writeQueued = async () => {
    while (queue.length > 0) {
      const group = queue;
      queue = [];
      await journal.write(Buffer.concat(group.map(() => line)));
      await journal.datasync();
      const synced = performance.now();
      for (const queuedAt of group) paced.push(synced - queuedAt);
      groups.push(group.length);
    }
    writing = undefined;
  };
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  for (let i = 0; i < PACED; i++) {
    queue.push(performance.now());
    writing ??= writeQueued();
    await sleep(1);
  }
  await writing;
} finally {
  await journal.close();
  await rm(dir, { recursive: true, force: true });
}
const at = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const summary = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const f = (v) => v.toFixed(2);
  const over = (ms) => values.filter((v) => v > ms).length;
  return `p50 ${f(at(sorted, 50))}  p90 ${f(at(sorted, 90))}  p99 ${f(at(sorted, 99))}  p99.9 ${f(at(sorted, 99.9))}  max ${f(sorted.at(-1))} ms  (>5 ms: ${over(5)}, >10: ${over(10)}, >20: ${over(20)})`;
};
console.log(`${COUNT} × (${line.length}-byte append + fdatasync) in ${os.tmpdir()}, line ${line.length} bytes`);
console.log(`  write+datasync  ${summary(total)}`);
console.log(`  datasync alone  ${summary(syncOnly)}`);
console.log(`${PACED} lines, one a ms, group commit (a line queued during a sync joins the next), queued → synced:`);
console.log(`  ${summary(paced)}; ${groups.length} syncs, up to ${Math.max(...groups)} lines in one`);
