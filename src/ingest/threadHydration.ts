import type { JsonRpcError } from '../protocol/jsonRpc';
import { JSON_RPC_ERROR, jsonRpcError } from '../protocol/jsonRpc';
import type { IngestFrame } from '../operators/stageValues';
import type { StoredThreadEvent } from '../store/eventStore';
import { restoreTurnState } from '../turns/restoreTurnState';

export interface ThreadHydrationDeps {
  /** The thread's stored rows, in seq order. */
  read(threadId: string): Promise<readonly StoredThreadEvent[]>;
  /** This process's epoch, handed over with each restored state (`restored.processEpoch`). */
  processEpoch: string;
  /** Into the pipeline, in order. */
  send(frame: IngestFrame): void;
  /** Answers a frame that waited for a read that failed. */
  refuse(frame: IngestFrame, error: JsonRpcError): void;
  /** A correlation id for a `restored` input, and a promise that settles once the pipeline has answered it. */
  expectAnswer(): { correlationId: number; answered: Promise<unknown> };
}

export interface ThreadHydration {
  /**
   * Sends the frame on at once when its thread's state is in the pipeline and no earlier frame of the thread
   * waits; otherwise parks it behind the thread's store read (the first parked frame starts the read).
   */
  admit(threadId: string, frame: IngestFrame): void;
  /** Resolves once the thread's restored state has been through the pipeline (reads it first if needed). */
  restored(threadId: string): Promise<void>;
  /** A failed append lost rows of these threads: their next frames wait for a fresh read. */
  forget(threadIds: Iterable<string>): void;
  /** The pipeline was replaced: every thread is read again; frames still parked go into the new one. */
  reset(): void;
  /** Correlation ids of parked frames, which have not reached the pipeline yet. */
  parkedIds(): Set<number>;
}

/**
 * Hydration, parking and forgetting: the first frame of a thread this process has not seen waits for the
 * thread's rows, which go into the pipeline as one `restored` input (the turn rules decide what a restored
 * turn means), followed by the frames that waited, in arrival order, in one go. A burst on new threads so
 * costs an array push per frame instead of an async wait each.
 */
export function createThreadHydration(deps: ThreadHydrationDeps): ThreadHydration {
  /** Threads whose restored state is in the pipeline (or on its way, ahead of any later frame). */
  const ready = new Set<string>();
  /** The running read per thread; a newer read replaces it (after `forget` / `reset`). */
  const reads = new Map<string, Promise<void>>();
  /** Frames per thread waiting for the thread's read, in arrival order. */
  const parked = new Map<string, IngestFrame[]>();

  const release = (threadId: string, deliver: (frame: IngestFrame) => void) => {
    const queued = parked.get(threadId) ?? [];
    parked.delete(threadId);
    for (const frame of queued) deliver(frame);
  };

  const read = (threadId: string): Promise<void> => {
    const current = reads.get(threadId);
    if (current) return current;
    const reading: Promise<void> = deps.read(threadId).then(
      (rows) => {
        // A reset while this read ran (a failed append, a pipeline restart) wants a newer read: it counts.
        if (reads.get(threadId) !== reading) return read(threadId);
        const { correlationId, answered } = deps.expectAnswer();
        const state = restoreTurnState(rows);
        // The restored state, then the parked frames, synchronously: nothing of the thread can slip between.
        deps.send({ correlationId, input: { kind: 'restored', threadId, state, processEpoch: deps.processEpoch } });
        ready.add(threadId);
        release(threadId, deps.send);
        return answered.then(() => undefined);
      },
      (cause: unknown) => {
        if (reads.get(threadId) === reading) reads.delete(threadId);
        const error = jsonRpcError(JSON_RPC_ERROR.internalError, 'Could not read the thread from the store', String(cause));
        release(threadId, (frame) => deps.refuse(frame, error));
        throw cause;
      },
    );
    reads.set(threadId, reading);
    return reading;
  };

  return {
    admit(threadId, frame) {
      if (ready.has(threadId) && !parked.has(threadId)) return deps.send(frame);
      const queued = parked.get(threadId);
      if (queued) return void queued.push(frame);
      parked.set(threadId, [frame]);
      // A read that ends by failing has refused the parked frames already; nobody else awaits it here.
      read(threadId).catch(() => undefined);
    },
    restored: read,
    forget(threadIds) {
      for (const threadId of threadIds) {
        ready.delete(threadId);
        reads.delete(threadId);
      }
    },
    reset() {
      // A read still running sees it was replaced and reads again, for the new pipeline.
      ready.clear();
      reads.clear();
    },
    parkedIds: () => new Set([...parked.values()].flat().map((frame) => frame.correlationId)),
  };
}
