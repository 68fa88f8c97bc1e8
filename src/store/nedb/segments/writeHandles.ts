import type { ThreadSegment } from './threadSegment';

/**
 * The threads written most recently keep their file open, so a busy thread's append is one write, not an
 * open, a write and a close. Beyond `max` open files the least recently written thread's file is closed
 * (inside its own turn, so never under a write in progress).
 */
export function createWriteHandles(max: number) {
  const recent = new Map<string, ThreadSegment>();
  return {
    wrote(segment: ThreadSegment): void {
      recent.delete(segment.threadId);
      recent.set(segment.threadId, segment);
      for (const oldest of recent.values()) {
        if (recent.size <= max) break;
        recent.delete(oldest.threadId);
        void oldest.exclusive(() => oldest.closeHandle()).catch(() => undefined);
      }
    },
    /** The thread is gone (deleted): its file, closed by the caller, is no longer ours to close. */
    forget(threadId: string): void {
      recent.delete(threadId);
    },
    async closeAll(): Promise<void> {
      const segments = [...recent.values()];
      recent.clear();
      await Promise.all(segments.map((segment) => segment.exclusive(() => segment.closeHandle()).catch(() => undefined)));
    },
  };
}

export type WriteHandles = ReturnType<typeof createWriteHandles>;
