import { expect } from 'chai';
import { DeliveryFailure } from '../../src/notifications/deliveryFailure';
import { outageLog } from '../../src/notifications/outageLog';
import type { WebhookNotification } from '../../src/notifications/webhookNotification';

const any = {} as WebhookNotification;

describe('outageLog() (issue 31: webhook failures are logged once per outage, not per event or retry)', () => {
  it('one line when POSTs start failing, one when one lands again, with what the outage cost', () => {
    const lines: string[] = [];
    let now = 0;
    const watch = outageLog({ target: 'https://ntfy.sh', queueMax: 2, log: (line) => lines.push(line), now: () => now });
    for (let i = 0; i < 50; i++) watch.attemptFailed(new DeliveryFailure('HTTP 502', true));
    watch.gaveUp(any, new DeliveryFailure('HTTP 502', true));
    watch.dropped(any);
    watch.dropped(any);
    now = 61_000;
    watch.delivered(any);
    watch.delivered(any);
    expect(lines).to.deep.equal([
      'notify webhook https://ntfy.sh: POST failed (HTTP 502); retrying with backoff, quiet until one lands',
      'notify webhook https://ntfy.sh: more than 2 events wait; dropping the oldest',
      'notify webhook https://ntfy.sh: delivering again after 61 s (50 failed attempts; events 1 given up, 2 dropped from the full queue)',
    ]);
  });

  it('a queue that overflowed behind a slow receiver says so once, and what it cost once it caught up', () => {
    const lines: string[] = [];
    const watch = outageLog({ target: 'http://127.0.0.1:9', queueMax: 1, log: (line) => lines.push(line), now: () => 0 });
    watch.dropped(any);
    watch.delivered(any);
    watch.dropped(any);
    watch.idle();
    watch.idle();
    expect(lines).to.deep.equal([
      'notify webhook http://127.0.0.1:9: more than 1 events wait; dropping the oldest',
      'notify webhook http://127.0.0.1:9: caught up; events 2 dropped from the full queue',
    ]);
  });
});
