import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Journal } from './segments/journal';
import { mapWithLimit } from './segments/mapWithLimit';
import { syncFiles } from './segments/syncFiles';
import type { ThreadSegment } from './segments/threadSegment';
import type { Serially } from './serially';

/**
 * A checkpoint (sync the thread files written since, then drop the journal) starts this often, or once the
 * journal holds this many bytes: what a start after a power cut replays at most is bounded by them.
 */
const CHECKPOINT_MS = 1_000;
const CHECKPOINT_BYTES = 32 * 1024 * 1024;
/**
 * Thread files a checkpoint writes at once. Few, so the checkpoint takes its slices of libuv's 4-thread pool
 * beside the commits instead of queueing hundreds of writes ahead of the journal's fsync (at 64, a checkpoint
 * of 200 threads held acks at 5,000/s back by 50–130 ms).
 */
const CHECKPOINT_WRITE_CONCURRENCY = 2;
/**
 * A journal this much past its checkpoint size while the previous checkpoint still syncs makes the next
 * commit wait for that checkpoint: ingest slows to what the disk absorbs instead of the journal (and what a
 * start after a power cut replays) growing without bound.
 */
const JOURNAL_MAX_BYTES = 4 * CHECKPOINT_BYTES;

export interface CheckpointerOptions {
  journal: Journal;
  eventsDir: string;
  /** The store's queue of commits: a checkpoint starts only between two of them. */
  serially: Serially;
  /** How often a checkpoint starts at most (default `CHECKPOINT_MS`). */
  checkpointMs?: number;
  log?(message: string): void;
}

/**
 * The journal's other half. A commit fsyncs its rows once, in the journal, and leaves them in memory beside
 * it; the checkpointer later writes them to their thread files and syncs those off the ack path, then drops
 * the journal. It keeps what a checkpoint owes (threads holding lines, files not yet synced) and when the
 * next one is due; each checkpoint runs beside the next commits, never between a group's journal write and
 * its files.
 */
export interface Checkpointer {
  /** A commit left lines of `segment` in memory (the journal holds them); `created`: its file is new. */
  wrote(segment: ThreadSegment, created: boolean): void;
  /** The running checkpoint while the journal is past `JOURNAL_MAX_BYTES`: the next commit waits for it. */
  backlog(): Promise<void> | undefined;
  /** Whether the journal is old or large enough for a checkpoint to start. */
  due(): boolean;
  /** Starts a checkpoint unless one runs; only inside `serially`, between commits. */
  begin(): Promise<void>;
  /**
   * Runs a checkpoint now and waits for it (and for one already running): afterwards no journal holds a row
   * written before the call. Fails when the checkpoint did. Only inside `serially`.
   */
  drain(): Promise<void>;
  /** Stops the timer (at close). */
  stop(): void;
  /** At close, after the last commit: a last checkpoint, and the lines of a failed one written to their files. */
  finish(): Promise<void>;
}

export function startCheckpointer({ journal, eventsDir, serially, checkpointMs = CHECKPOINT_MS, log }: CheckpointerOptions): Checkpointer {
  /** Thread files (and folders of new ones) written since the journal file was started: a checkpoint syncs them. */
  let unsynced = new Set<string>();
  /** Threads holding appended lines in memory (the journal has them): a checkpoint writes them to their files. */
  let deferred = new Set<ThreadSegment>();
  let checkpointing: Promise<void> | undefined;
  let lastCheckpoint = Date.now();
  /** Why the last checkpoint failed, for `drain`; cleared when one starts. */
  let failure: unknown;

  /**
   * Seals the journal file and, beside the next commits, writes the lines threads hold in memory to their
   * files, syncs the files written while the journal was current, then deletes it. A failed checkpoint
   * leaves its journal on disk: the next open replays it, which is harmless.
   */
  const begin = async (): Promise<void> => {
    if (checkpointing) return;
    const sealed = await journal.seal();
    lastCheckpoint = Date.now();
    if (!sealed) return;
    const paths = [...unsynced];
    unsynced = new Set();
    const toFlush = deferred;
    deferred = new Set();
    failure = undefined;
    checkpointing = (async () => {
      await flushAll(toFlush);
      await syncFiles(paths, eventsDir);
      await fs.rm(sealed, { force: true });
    })()
      .catch((error: unknown) => {
        failure = error;
        log?.(`event store: checkpoint failed (${(error as Error).message}); its journal is replayed at the next start`);
      })
      .finally(() => (checkpointing = undefined));
  };
  const due = () => journal.bytes > 0 && (journal.bytes >= CHECKPOINT_BYTES || Date.now() - lastCheckpoint >= checkpointMs);
  const timer = setInterval(
    () => {
      if (due()) void serially(begin);
    },
    Math.min(checkpointMs, CHECKPOINT_MS),
  );
  timer.unref();

  return {
    wrote(segment, created) {
      deferred.add(segment);
      unsynced.add(segment.filePath);
      if (created) unsynced.add(path.dirname(segment.filePath)).add(eventsDir);
    },
    backlog: () => (checkpointing && journal.bytes >= JOURNAL_MAX_BYTES ? checkpointing : undefined),
    due,
    begin,
    async drain() {
      await checkpointing;
      await begin();
      await checkpointing;
      if (failure !== undefined) throw failure;
    },
    stop: () => clearInterval(timer),
    async finish() {
      await checkpointing; // one still syncing would make the last one skip its turn
      await serially(begin);
      await checkpointing;
      await flushAll(deferred).catch(() => undefined); // a failed checkpoint's lines: its journal stays for the next start
    },
  };
}

/** Writes each thread's lines held in memory to its file, a few files at once; fails if any did. */
async function flushAll(segments: Iterable<ThreadSegment>): Promise<void> {
  const outcomes = await mapWithLimit([...segments], CHECKPOINT_WRITE_CONCURRENCY, (segment) => segment.exclusive(() => segment.flush()));
  const failure = outcomes.find((outcome) => outcome.status === 'rejected');
  if (failure) throw failure.reason;
}
