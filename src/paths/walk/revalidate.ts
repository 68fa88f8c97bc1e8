import type { DirectoryStamp } from './directoryFacts';
import { applyContents, type DirectoryNode } from './directoryNode';
import type { DirectoryReader } from './directoryReader';
import { isUnchanged, stampOf, statSyncOf } from './directoryStamps';
import type { RevalidationStart, WalkContext } from './revalidationStart';

/**
 * How a revalidation shares the machine. `'foreground'`: a call waits for it, so enough batches are in flight to
 * keep every reading thread busy. `'background'`: nobody waits (calls are answered from the last listing), so one
 * batch at a time, and the main thread is given back between batches: with every reading thread busy, keystrokes
 * ranked meanwhile and a watch's start shared two cores with it (issue 26).
 */
export type RevalidationPace = 'foreground' | 'background';

/**
 * Stats known directories and re-reads the ones that are new, moved, or racy. Both go to the directory
 * reader in batches (how many in flight: `pace`); the root is stat'ed before, following a symlink (nothing
 * below it is followed).
 */
export function revalidate(
  start: RevalidationStart,
  context: WalkContext,
  pace: RevalidationPace = 'foreground',
): Promise<{ changed: boolean; unstamped: DirectoryNode[] }> {
  const { racyWindowMs } = context;
  const reader = pace === 'background' ? context.backgroundReader : context.reader;
  const mostInFlight = pace === 'background' ? 1 : reader.parallelism;
  const { trustKnown } = start;
  return new Promise((resolve) => {
    const unstamped: DirectoryNode[] = [];
    let changed = start.changed;
    const toStat: DirectoryNode[] = [...start.stat];
    const toRead: DirectoryNode[] = [...start.read];
    let batchesInFlight = 0;
    const enqueue = (nodes: Iterable<DirectoryNode>): void => {
      for (const node of nodes) {
        if (node.readAt === 0) toRead.push(node);
        else if (!trustKnown) (node.stamp === null ? toRead : toStat).push(node);
      }
    };
    const settle = (node: DirectoryNode, now: DirectoryStamp | null): void => {
      if (now !== null && isUnchanged(node, now, racyWindowMs)) enqueue(node.children);
      else toRead.push(node);
    };
    // Split what is queued among the threads; small batches early, so the walk fans out fast.
    const takeBatch = (queue: DirectoryNode[], most: number): DirectoryNode[] =>
      queue.splice(-Math.min(most, Math.max(1, Math.ceil(queue.length / reader.parallelism))));
    const startRead = (): void => {
      const batch = takeBatch(toRead, READ_BATCH);
      const readAt = context.clock();
      for (const node of batch) {
        unstamped.push(node);
        node.stamp = null;
        node.readAt = readAt;
      }
      context.counters.directoriesRead += batch.length;
      void reader.read(batch.map((node) => node.absolute)).then((contents) => {
        batch.forEach((node, index) => {
          if (applyContents(node, contents[index] ?? null)) changed = true;
          enqueue(node.children);
        });
        done();
      });
    };
    const startStat = (): void => {
      const batch = takeBatch(toStat, STAT_BATCH);
      void reader.stat(batch.map((node) => node.absolute)).then((stamps) => {
        batch.forEach((node, index) => settle(node, stamps[index] ?? null));
        done();
      });
    };
    const done = (): void => {
      batchesInFlight -= 1;
      if (pace === 'background') setImmediate(step);
      else step();
    };
    const step = (): void => {
      // Reads first: they find more work; stats mostly confirm what is known.
      while (batchesInFlight < mostInFlight && (toRead.length > 0 || toStat.length > 0)) {
        batchesInFlight += 1;
        if (toRead.length > 0) startRead();
        else startStat();
      }
      if (batchesInFlight === 0) resolve({ changed, unstamped });
    };
    step();
  });
}

/** Most directories sent to a thread at once: enough to amortise the message, few enough to share work. */
const READ_BATCH = 256;
const STAT_BATCH = 1_024;

/**
 * Records what each freshly read directory looks like (`readAt` was taken before its read). At the background
 * pace one batch at a time, the main thread given back between them (`reader` is then the background one).
 */
export async function stampAll(
  top: DirectoryNode,
  nodes: DirectoryNode[],
  reader: DirectoryReader,
  pace: RevalidationPace = 'foreground',
): Promise<void> {
  const below = nodes.filter((node) => node !== top);
  if (below.length < nodes.length) top.stamp = stampOf(statSyncOf(top.absolute));
  const batches: DirectoryNode[][] = [];
  for (let start = 0; start < below.length; start += STAT_BATCH) batches.push(below.slice(start, start + STAT_BATCH));
  const stampBatch = async (batch: DirectoryNode[]): Promise<void> => {
    const stamps = await reader.stat(batch.map((node) => node.absolute));
    batch.forEach((node, index) => (node.stamp = stamps[index] ?? null));
  };
  if (pace === 'foreground') {
    await Promise.all(batches.map(stampBatch));
    return;
  }
  for (const batch of batches) {
    await stampBatch(batch);
    await new Promise((resolve) => setImmediate(resolve));
  }
}
