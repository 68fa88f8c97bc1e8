import { execFile } from 'node:child_process';
import { mapWithLimit } from './mapWithLimit';
import { fsyncPath } from '../../fsyncPath';

/**
 * Below this many files, one fsync each, one at a time (~0.75 ms each here): the journal's fsync then waits for
 * at most one of them. Above, one `syncfs` of the whole file system: slower for the journal while it runs
 * (30–60 ms for 200 files), but the only way thousands of files are synced before the next checkpoint.
 */
const SYNCFS_ABOVE_FILES = 1_000;
/** Per-file fsyncs at once: leaves libuv's pool (4 threads) to the journal's own fsync and the reads. */
const FSYNC_CONCURRENCY = 1;

/**
 * Makes the given files and folders durable. A checkpoint after a busy second names thousands of thread
 * files; fsyncing them one by one through libuv's small pool takes longer than the next second's writes, so
 * on Linux such a batch is one `syncfs(2)` (coreutils `sync -f`) of the file system holding `dir`, run in
 * its own process so it never occupies the pool the journal's fsync needs. Elsewhere, or if that fails, one
 * fsync per path.
 */
export async function syncFiles(paths: readonly string[], dir: string): Promise<void> {
  if (paths.length > SYNCFS_ABOVE_FILES && process.platform === 'linux') {
    const synced = await new Promise<boolean>((resolve) => execFile('sync', ['-f', dir], (error) => resolve(!error)));
    if (synced) return;
  }
  const outcomes = await mapWithLimit(paths, FSYNC_CONCURRENCY, fsyncPath);
  const failure = outcomes.find((outcome) => outcome.status === 'rejected');
  if (failure) throw failure.reason;
}
