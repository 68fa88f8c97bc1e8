/**
 * A count of free places (frames of one socket being stored), with one waiter: the socket's single hand-over
 * loop. A counter instead of racing the pending promises, which cost a reaction per pending frame per frame.
 */
export interface Slots {
  available(): number;
  take(count: number): void;
  give(): void;
  /** Resolves once at least one place is free (at once when one is). */
  free(): Promise<void>;
}

export function createSlots(max: number): Slots {
  let used = 0;
  let waiter: (() => void) | undefined;
  return {
    available: () => max - used,
    take(count) {
      used += count;
    },
    give() {
      used--;
      waiter?.();
      waiter = undefined;
    },
    free() {
      if (used < max) return Promise.resolve();
      return new Promise((resolve) => (waiter = resolve));
    },
  };
}
