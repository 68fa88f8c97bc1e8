/**
 * node bench/diskSync.mjs — this disk's own fdatasync latency, the floor under the store's ack path (issue 27's
 * bench:acp tail): appends a ~100-byte line and fdatasyncs it, DISK_SYNC_COUNT times (5,000), one at a time, the
 * way the journal does (FileHandle.write then datasync, on libuv's pool), in a temp folder under os.tmpdir(), where
 * the benches keep their data dirs. Prints p50 / p90 / p99 / p99.9 / max of write+datasync and of datasync alone.
 */
import { mkdtemp, open, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const COUNT = Number(process.env.DISK_SYNC_COUNT ?? 5000);
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
