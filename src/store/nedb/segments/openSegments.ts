import type { ThreadSegment } from './threadSegment';

export interface OpenSegmentsBudget {
  /** Threads held in memory at most. */
  maxThreads: number;
  /** Bytes of thread files held in memory at most (nedb's copy takes about twice its file's bytes). */
  maxBytes: number;
}

/**
 * The threads whose rows are in memory, least recently read first. Opening one more closes the least recently
 * read ones until the set fits the budget again (the thread just opened always stays, however big). Closing
 * is dropping the in-memory datastore: the file already holds every row.
 */
export function createOpenSegments(budget: OpenSegmentsBudget) {
  const open = new Map<string, ThreadSegment>();
  const bytesOf = () => {
    let bytes = 0;
    for (const segment of open.values()) bytes += segment.head?.bytes ?? 0;
    return bytes;
  };
  const close = (segment: ThreadSegment) => {
    segment.datastore = undefined;
    open.delete(segment.threadId);
  };
  return {
    /** Marks a thread as just read, then closes others while over budget. */
    touch(segment: ThreadSegment): void {
      open.delete(segment.threadId);
      open.set(segment.threadId, segment);
      let bytes = bytesOf();
      for (const oldest of open.values()) {
        if (oldest === segment || (open.size <= budget.maxThreads && bytes <= budget.maxBytes)) break;
        bytes -= oldest.head?.bytes ?? 0;
        close(oldest);
      }
    },
    close,
    get size() {
      return open.size;
    },
    bytes: bytesOf,
  };
}

export type OpenSegments = ReturnType<typeof createOpenSegments>;
