import { writeSegmentIndex, type SegmentHead } from './segments/segmentIndex';

/** How often a changed index is saved; it is only a hint (see segmentIndex.ts), so losing the last one is cheap. */
const INDEX_SAVE_MS = 5_000;

/**
 * Keeps `index.json` near the heads appends have moved, without a write per commit: a commit only records the
 * new head, and a timer saves a snapshot of the index when it changed. A failed save is retried at the next
 * tick; until then a start rebuilds the heads it lacks from the thread files.
 */
export interface IndexSaver {
  /** The thread's head moved: the index holds it from now on and the next save writes it. */
  record(threadId: string, head: SegmentHead): void;
  /** The thread was deleted: the next save leaves it out (a stale entry meanwhile is harmless, its file is gone). */
  forget(threadId: string): void;
  /** Saves the index if it changed since the last save; answers when that save (or the one running) ends. */
  save(): Promise<void>;
  /** Stops the timer (at close, before the last `save`). */
  stop(): void;
}

export function startIndexSaver(eventsDir: string, index: Map<string, SegmentHead>, log?: (message: string) => void): IndexSaver {
  let changed = false;
  let saving: Promise<void> = Promise.resolve();
  const save = (): Promise<void> => {
    if (!changed) return saving;
    changed = false;
    const snapshot = new Map(index);
    saving = saving
      .then(() => writeSegmentIndex(eventsDir, snapshot))
      .catch((error: unknown) => {
        changed = true;
        log?.(`event store: the index was not saved (${(error as Error).message}); it is rebuilt from the files as needed`);
      });
    return saving;
  };
  const timer = setInterval(() => void save(), INDEX_SAVE_MS);
  timer.unref();
  return {
    record(threadId, head) {
      index.set(threadId, head);
      changed = true;
    },
    forget(threadId) {
      changed = index.delete(threadId) || changed;
    },
    save,
    stop: () => clearInterval(timer),
  };
}
