import type { FsyncMode } from '../store/fsyncMode';
import { fsyncPath } from '../store/fsyncPath';

/**
 * Called after a write to `filename` has returned; resolves once that write is as durable as `mode` asks:
 * - `always`: one fsync of its own;
 * - `batch`: group commit, one fsync shared by every write that finished while the previous one ran (a sync
 *   already running may have started before the write, so it only counts for writes that came before it);
 * - `off`: at once (the bytes are in the page cache: safe from a process kill, not from a power cut).
 *
 * The file is fsynced by name (nedb's compaction replaces it by a rename); `sync` is that fsync.
 */
export function durableAck(filename: string, mode: FsyncMode, sync: (filename: string) => Promise<void> = fsyncPath): () => Promise<void> {
  if (mode === 'off') return () => Promise.resolve();
  if (mode === 'always') return () => sync(filename);
  let running: Promise<void> | undefined;
  let next: Promise<void> | undefined;
  const start = (): Promise<void> => {
    const started: Promise<void> = sync(filename).finally(() => {
      if (running === started) running = undefined;
    });
    running = started;
    return started;
  };
  return () => {
    if (running === undefined) return start();
    next ??= running
      .catch(() => undefined)
      .then(() => {
        next = undefined;
        return start();
      });
    return next;
  };
}
