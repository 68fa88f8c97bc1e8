import type { DeliveryWatch } from './deliveryWatch';

export interface OutageLogDeps {
  /** The receiver as the log names it: its origin only, since a webhook URL's path is often its secret (Slack). */
  target: string;
  queueMax: number;
  log(message: string): void;
  now(): number;
}

/**
 * The webhook's log: one line when POSTs start failing, one when one lands again (with what the outage cost),
 * and one when the queue first overflows; never a line per event or per retry, so a receiver down for a day
 * writes two lines, not thousands.
 */
export function outageLog(deps: OutageLogDeps): DeliveryWatch {
  let outage: { since: number; failedAttempts: number } | undefined;
  let gaveUp = 0;
  let dropped = 0;
  const losses = () =>
    [gaveUp > 0 ? `${gaveUp} given up` : '', dropped > 0 ? `${dropped} dropped from the full queue` : ''].filter(Boolean).join(', ');
  return {
    attemptFailed(failure) {
      if (outage) return void outage.failedAttempts++;
      outage = { since: deps.now(), failedAttempts: 1 };
      deps.log(`notify webhook ${deps.target}: POST failed (${failure.message}); retrying with backoff, quiet until one lands`);
    },
    delivered() {
      if (!outage) return;
      const seconds = Math.round((deps.now() - outage.since) / 1000);
      const lost = losses();
      deps.log(
        `notify webhook ${deps.target}: delivering again after ${seconds} s (${outage.failedAttempts} failed attempts${lost ? `; events ${lost}` : ''})`,
      );
      outage = undefined;
      gaveUp = dropped = 0;
    },
    gaveUp() {
      gaveUp++;
    },
    dropped() {
      if (dropped++ === 0) deps.log(`notify webhook ${deps.target}: more than ${deps.queueMax} events wait; dropping the oldest`);
    },
    idle() {
      // Outside an outage the queue overflowed because the receiver was slow: say once what it cost.
      if (outage || dropped === 0) return;
      deps.log(`notify webhook ${deps.target}: caught up; events ${losses()}`);
      gaveUp = dropped = 0;
    },
  };
}
