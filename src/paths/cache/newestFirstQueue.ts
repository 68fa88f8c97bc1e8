/** Runs tasks one at a time; when one ends, the most recently queued starts next. */
export interface NewestFirstQueue {
  run<T>(task: () => Promise<T>): Promise<T>;
}

export function createNewestFirstQueue(): NewestFirstQueue {
  const waiting: Array<() => void> = [];
  let running = false;
  const next = (): void => {
    const start = waiting.pop();
    running = start !== undefined;
    start?.();
  };
  return {
    run: (task) =>
      new Promise((resolve, reject) => {
        waiting.push(() => {
          let started;
          try {
            started = task();
          } catch (error) {
            started = Promise.reject(error);
          }
          started.then(resolve, reject).finally(next);
        });
        if (!running) next();
      }),
  };
}
