import { defer, Observable, type OperatorFunction, type Subscription } from 'rxjs';
import { JSON_RPC_ERROR, jsonRpcError } from '../protocol/jsonRpc';
import { errorStep, okStep, type Step, type ThreadEvents, type PersistedEvents } from './stageValues';
import type { EventStore, NewThreadEvent, StoredThreadEvent } from '../store/eventStore';

/** Frames written in one `store.append` at most; bounds the latency a large backlog adds to its last frame. */
export const PERSIST_MAX_BATCH_FRAMES = 512;

export interface PersistOptions {
  maxBatchFrames?: number;
  /**
   * Told which threads lost rows in a failed append, before their frames are answered: the turn state
   * upstream already counted those rows, so it must be rebuilt from what the store really holds.
   */
  storeFailed?(threadIds: ReadonlySet<string>): void;
}

/**
 * Writes each frame's events through the store, which assigns `seq` (serialised per thread), and emits the
 * stored rows in input order. Group commit: while one append is in flight, arriving frames queue up and go
 * out together in the next append, so batching happens exactly when there is load and adds no delay when idle.
 * A failed append rejects the frames of that batch, as values, and the frames of the same threads already
 * queued behind it (they were built on the lost rows: a delta of a turn whose start was never stored);
 * other threads go on.
 *
 * ```
 * in:     --a--b--c--|     (a synchronous store: each frame is its own batch)
 * out:    --A--B--C--|     A: { rows: [{ seq: 1, … }] }
 * ```
 */
export function persistWithSeq(
  store: EventStore,
  { maxBatchFrames = PERSIST_MAX_BATCH_FRAMES, storeFailed }: PersistOptions = {},
): OperatorFunction<Step<ThreadEvents>, Step<PersistedEvents>> {
  return (source) =>
    new Observable<Step<PersistedEvents>>((subscriber) => {
      const queue: Step<ThreadEvents>[] = [];
      let writing: Subscription | undefined;
      let inFlight = false;
      let draining = false;
      let sourceDone = false;

      const writeBatch = () => {
        const batch = queue.splice(0, maxBatchFrames);
        const events: NewThreadEvent[] = [];
        for (const step of batch) if (step.ok) for (const event of step.value.events) events.push(event);
        inFlight = true;
        // Deferred: an adapter that throws instead of failing its result still rejects only this batch.
        writing = defer(() => (events.length === 0 ? [[]] : store.append(events))).subscribe({
          next: (rows) => {
            let offset = 0;
            for (const step of batch) {
              if (!step.ok) {
                subscriber.next(step);
                continue;
              }
              const { threadId, events: own, turnOpen, graceFor, pendingApprovalIds, promptAwaitingRun } = step.value;
              const persisted: PersistedEvents = { threadId, rows: rows.slice(offset, offset + own.length), turnOpen };
              if (graceFor !== undefined) persisted.graceFor = graceFor;
              if (pendingApprovalIds !== undefined) persisted.pendingApprovalIds = pendingApprovalIds;
              if (promptAwaitingRun) persisted.promptAwaitingRun = true;
              subscriber.next(okStep(step.correlationId, persisted));
              offset += own.length;
            }
          },
          error: (cause: unknown) => {
            const error = jsonRpcError(JSON_RPC_ERROR.internalError, 'Could not store the events', String(cause));
            const lost = new Set<string>();
            for (const step of batch) if (step.ok && step.value.events.length > 0) lost.add(step.value.threadId);
            // Rejected where they wait, so every frame still comes out in input order.
            queue.forEach((step, i) => {
              if (step.ok && lost.has(step.value.threadId)) queue[i] = errorStep(step.correlationId, error);
            });
            if (lost.size > 0) storeFailed?.(lost);
            for (const step of batch) subscriber.next(step.ok ? errorStep(step.correlationId, error) : step);
            inFlight = false;
            drain();
          },
          complete: () => {
            inFlight = false;
            drain();
          },
        });
      };

      const drain = () => {
        if (draining) return; // a synchronous store completes inside writeBatch; the loop below continues
        draining = true;
        while (!inFlight && queue.length > 0) writeBatch();
        draining = false;
        if (!inFlight && queue.length === 0 && sourceDone) subscriber.complete();
      };

      const input = source.subscribe({
        next: (step) => {
          queue.push(step);
          drain();
        },
        error: (cause) => subscriber.error(cause),
        complete: () => {
          sourceDone = true;
          drain();
        },
      });
      return () => {
        input.unsubscribe();
        writing?.unsubscribe();
      };
    });
}
