import { existsSync, readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time and run-queue wait of every thread of a process (this one by default), from Linux's `/proc/PID/task/*∕schedstat`
 * (nanoseconds on a core, nanoseconds runnable but waiting for one). Two samples around a call tell whether a
 * slow call's main thread was working (ranking, HTTP, the collector) or waiting for a core, and which other
 * thread of the process had the cores meanwhile (the watcher's crawl, a directory reader). Empty elsewhere.
 */
export type ThreadTimes = Map<number, { runNs: number; waitNs: number }>;

export function sampleThreadTimes(pid: number = process.pid): ThreadTimes {
  const TASKS = `/proc/${pid}/task`;
  const times: ThreadTimes = new Map();
  if (!existsSync(TASKS)) return times;
  for (const task of readdirSync(TASKS)) {
    try {
      const [run, wait] = readFileSync(`${TASKS}/${task}/schedstat`, 'utf8').split(' ');
      times.set(Number(task), { runNs: Number(run), waitNs: Number(wait) });
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return times;
}

export interface ThreadTimesBetween {
  /** The main thread (the event loop: HTTP, ranking, the collector's main-thread part). */
  mainRunMs: number;
  mainWaitMs: number;
  /** Every other thread of the process together, and the busiest of them. */
  othersRunMs: number;
  busiest: { tid: number; runMs: number } | null;
}

export function threadTimesBetween(before: ThreadTimes, after: ThreadTimes, main: number = process.pid): ThreadTimesBetween {
  const delta = (tid: number) => {
    const a = after.get(tid);
    const b = before.get(tid) ?? { runNs: 0, waitNs: 0 };
    return a === undefined ? { runMs: 0, waitMs: 0 } : { runMs: (a.runNs - b.runNs) / 1e6, waitMs: (a.waitNs - b.waitNs) / 1e6 };
  };
  const mainDelta = delta(main);
  let othersRunMs = 0;
  let busiest: ThreadTimesBetween['busiest'] = null;
  for (const tid of after.keys()) {
    if (tid === main) continue;
    const { runMs } = delta(tid);
    othersRunMs += runMs;
    if (busiest === null || runMs > busiest.runMs) busiest = { tid, runMs };
  }
  return { mainRunMs: mainDelta.runMs, mainWaitMs: mainDelta.waitMs, othersRunMs, busiest };
}
