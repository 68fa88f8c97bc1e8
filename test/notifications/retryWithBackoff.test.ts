import { expect } from 'chai';
import { defer } from 'rxjs';
import { DeliveryFailure } from '../../src/notifications/deliveryFailure';
import { retryWithBackoff } from '../../src/notifications/retryWithBackoff';
import { testScheduler } from '../helpers/pipeline/marbles';

describe('retryWithBackoff() (issue 31: a failing webhook is retried with exponential backoff)', () => {
  it('waits 1, 2, 4 frames, then never more than the cap, and gives up when a try would start after the deadline', () => {
    const scheduler = testScheduler();
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const failing = cold('-#');
      expectObservable(failing.pipe(retryWithBackoff({ initialDelayMs: 1, maxDelayMs: 4, deadline: 20 }, scheduler))).toBe(
        '---------------------#',
      );
      expectSubscriptions(failing.subscriptions).toBe([
        '^!',
        '--^!',
        '-----^!',
        '----------^!',
        '---------------^!',
        '--------------------^!',
      ]);
    });
  });

  it('stops retrying at the first try that answers', () => {
    const scheduler = testScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      let tries = 0;
      const source = defer(() => (++tries < 3 ? cold('-#') : cold('-a|')));
      expectObservable(source.pipe(retryWithBackoff({ initialDelayMs: 1, maxDelayMs: 4, deadline: 100 }, scheduler))).toBe('------a|');
    });
  });

  it('passes a failure that is not worth another try on at once', () => {
    const scheduler = testScheduler();
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const refused = new DeliveryFailure('HTTP 400, not retried', false);
      const source = cold('-#', undefined, refused);
      const retried = source.pipe(
        retryWithBackoff(
          { initialDelayMs: 1, maxDelayMs: 4, deadline: 100, retryable: (e) => (e as DeliveryFailure).retryable },
          scheduler,
        ),
      );
      expectObservable(retried).toBe('-#', undefined, refused);
      expectSubscriptions(source.subscriptions).toBe('^!');
    });
  });

  it('a receiver down for a minute gets its event at the first try after it is back (1 s doubling to 60 s)', () => {
    const scheduler = testScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      const tries: number[] = [];
      // Each try takes 1 ms; the receiver answers 500 until 60 s.
      const receiver = defer(() => {
        tries.push(scheduler.now());
        return scheduler.now() < 60_000 ? cold('-#') : cold('-a|');
      });
      const delivered = receiver.pipe(retryWithBackoff({ initialDelayMs: 1_000, maxDelayMs: 60_000, deadline: 3_600_000 }, scheduler));
      expectObservable(delivered).toBe('63007ms a|');
      scheduler.flush();
      expect(tries).to.deep.equal([0, 1_001, 3_002, 7_003, 15_004, 31_005, 63_006]);
    });
  });
});
