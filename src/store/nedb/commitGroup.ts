import type { NewThreadEvent, StoredThreadEvent } from '../eventStore';
import type { AppendToThread } from './appendToThread';
import type { Checkpointer } from './checkpointer';
import type { Committing } from './segments/groupCommit';
import type { Journal } from './segments/journal';
import { mapWithLimit } from './segments/mapWithLimit';
import type { ThreadSegment } from './segments/threadSegment';

/** Thread files written at once by one commit (the journal, not they, is fsynced before the ack). */
const WRITE_CONCURRENCY = 64;

export interface CommitGroupDeps {
  /** Absent with `fsync: off`. */
  journal: Journal | undefined;
  /** Absent with `fsync: off`. */
  checkpointer: Checkpointer | undefined;
  appendToThread: AppendToThread;
  segmentOf(threadId: string): ThreadSegment;
  now(): Date;
}

type Group = ReadonlyArray<readonly NewThreadEvent[]>;

/**
 * What one group of `append` calls costs: each thread's share stored once, however many appends named it,
 * then one journal write (and so one fsync) for the whole group. The answer is each append's own rows, or
 * the error of a thread it named: one thread's failure fails only the appends that wrote to it.
 */
export function createCommitGroup({ journal, checkpointer, appendToThread, segmentOf, now }: CommitGroupDeps) {
  return async (group: Group): Promise<Committing<StoredThreadEvent[]>> => {
    const backlog = checkpointer?.backlog();
    if (backlog) await backlog;
    if (checkpointer?.due()) await checkpointer.begin();
    const createdAt = now().toISOString();
    const byThread = new Map<string, NewThreadEvent[]>();
    for (const events of group)
      for (const event of events) byThread.get(event.threadId)?.push(event) ?? byThread.set(event.threadId, [event]);
    const threadIds = [...byThread.keys()];
    const outcomes = await mapWithLimit(threadIds, WRITE_CONCURRENCY, (threadId) =>
      appendToThread(segmentOf(threadId), byThread.get(threadId)!, createdAt),
    );
    const stored = new Map<string, StoredThreadEvent[]>();
    const failed = new Map<string, Error>();
    const journalLines: string[] = [];
    outcomes.forEach((outcome, i) => {
      if (outcome.status === 'fulfilled') {
        stored.set(threadIds[i]!, outcome.value.rows);
        journalLines.push(outcome.value.lines);
      } else failed.set(threadIds[i]!, outcome.reason instanceof Error ? outcome.reason : new Error(String(outcome.reason)));
    });
    // One fsync for the whole group (and the groups prepared while the one before was being synced), however
    // many threads it wrote: the ack means "on disk". Journal appends complete in the order they are called.
    const journaled = journal && journalLines.length > 0 ? journal.append(journalLines.join('')) : Promise.resolve();
    const outcome = journaled.then(() => {
      for (const [threadId, rows] of stored) segmentOf(threadId).ackedSeq = rows[rows.length - 1]!.seq;
      return rowsOfEachAppend(group, stored, failed);
    });
    return { outcome };
  };
}

/** Hands each append its own rows back in its own order: a thread's rows were numbered in submission order. */
function rowsOfEachAppend(
  group: Group,
  stored: ReadonlyMap<string, StoredThreadEvent[]>,
  failed: ReadonlyMap<string, Error>,
): Array<StoredThreadEvent[] | Error> {
  const taken = new Map<string, number>();
  return group.map((events) => {
    const failure = events.map((event) => failed.get(event.threadId)).find((error) => error !== undefined);
    const rows = events.map((event) => {
      const at = taken.get(event.threadId) ?? 0;
      taken.set(event.threadId, at + 1);
      return stored.get(event.threadId)?.[at];
    });
    return failure ?? (rows as StoredThreadEvent[]);
  });
}
