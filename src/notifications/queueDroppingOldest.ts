import { from, Observable, type ObservableInput, type OperatorFunction, type Subscription } from 'rxjs';

export interface BoundedQueue<T> {
  /** Values waiting at most (the one being worked on not counted). */
  capacity: number;
  /** A value pushed out of the line unworked: a newer one arrived while `capacity` others waited. */
  dropped(value: T): void;
  /** The line just became empty with nothing being worked on (once per stretch of work). */
  idle?(): void;
}

/**
 * `concatMap` whose waiting line is bounded: values are worked one at a time, in order, and when more than
 * `capacity` wait, the oldest waiting one is dropped (handed to `dropped`), so a receiver down for hours costs
 * `capacity` values of memory, not one per event.
 *
 * ```
 * capacity 1; each value's work takes 3 frames
 * source:  -abc-----|
 * result:  ----A--C-|      b dropped when c came (a was being worked on, b waited)
 * ```
 */
export function queueDroppingOldest<T, R>(work: (value: T) => ObservableInput<R>, queue: BoundedQueue<T>): OperatorFunction<T, R> {
  return (source) =>
    new Observable<R>((subscriber) => {
      const waiting: T[] = [];
      let working: Subscription | undefined;
      let busy = false;
      let workedSinceIdle = false;
      let draining = false;
      let sourceDone = false;
      // A loop, not recursion: work that completes at once would otherwise nest one call per waiting value.
      const drain = () => {
        if (draining) return;
        draining = true;
        while (!busy && waiting.length > 0) {
          busy = workedSinceIdle = true;
          working = from(work(waiting.shift() as T)).subscribe({
            next: (result) => subscriber.next(result),
            error: (error: unknown) => subscriber.error(error),
            complete: () => {
              busy = false;
              drain();
            },
          });
        }
        draining = false;
        if (busy || waiting.length > 0) return;
        if (workedSinceIdle) queue.idle?.();
        workedSinceIdle = false;
        if (sourceDone) subscriber.complete();
      };
      const input = source.subscribe({
        next: (value) => {
          waiting.push(value);
          if (waiting.length > queue.capacity) queue.dropped(waiting.shift() as T);
          drain();
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => {
          sourceDone = true;
          drain();
        },
      });
      return () => {
        input.unsubscribe();
        working?.unsubscribe();
      };
    });
}
