/** Runs `work` after every work handed in before it has settled (fulfilled or not), and answers with its result. */
export type Serially = <T>(work: () => Promise<T>) => Promise<T>;

/**
 * One queue for the nedb store's commits and checkpoint starts: a checkpoint that sealed the journal between
 * a group's journal write and its thread files would drop lines no file holds yet, so neither ever starts
 * while the other runs. A failed work does not stop the queue; its caller gets the failure.
 */
export function createSerially(): Serially {
  let serial: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>): Promise<T> => {
    const run = serial.then(work);
    serial = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  };
}
