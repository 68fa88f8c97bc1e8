import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The disk's own share of a paced ack: one append of `bytes` plus its fdatasync every `tickMs` for `seconds`
 * (what the store's journal does per group at a paced 5,000 frames/s: one group a tick, ~11 KB), in a temp
 * folder of the same file system, nothing else running: the floor the disk sets under a paced ack's p99 in
 * the minutes the other sides ran.
 */
export async function diskPacedLatency(seconds: number, tickMs: number, bytes: number) {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-disk-'));
  const handle = await fs.open(path.join(dir, 'journal.log'), 'a');
  const line = Buffer.alloc(bytes, 'x');
  const latencies: number[] = [];
  const started = performance.now();
  try {
    for (let tick = 0; performance.now() - started < seconds * 1000; tick += 1) {
      const at = performance.now();
      await handle.write(line);
      await handle.datasync();
      latencies.push(performance.now() - at);
      const next = started + (tick + 1) * tickMs;
      if (next > performance.now()) await sleep(next - performance.now());
    }
  } finally {
    await handle.close();
    await fs.rm(dir, { recursive: true, force: true });
  }
  return { offeredRate: latencies.length / ((performance.now() - started) / 1000), latencies };
}
