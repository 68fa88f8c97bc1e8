import { expect } from 'chai';
import { of } from 'rxjs';
import { queueDroppingOldest } from '../../src/notifications/queueDroppingOldest';
import { testScheduler } from '../helpers/pipeline/marbles';

describe('queueDroppingOldest() (issue 31: the webhook queue holds a bounded number of events)', () => {
  it('works one value at a time, in order', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold('-ab----|');
      const worked = source.pipe(
        queueDroppingOldest((v: string) => cold('--(x|)', { x: v.toUpperCase() }), { capacity: 5, dropped: () => {} }),
      );
      expectObservable(worked).toBe('---A-B-|');
    });
  });

  it('drops the oldest waiting value when more than the capacity wait, and says which', () => {
    const dropped: string[] = [];
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold('-abc-----|');
      const worked = source.pipe(
        queueDroppingOldest((v: string) => cold('---(x|)', { x: v.toUpperCase() }), { capacity: 1, dropped: (v) => dropped.push(v) }),
      );
      expectObservable(worked).toBe('----A--C-|');
    });
    expect(dropped).to.deep.equal(['b']);
  });

  it('says when it is idle: nothing waits and nothing is being worked on', () => {
    const idle: number[] = [];
    const scheduler = testScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      const source = cold('-a-------b|');
      const worked = source.pipe(
        queueDroppingOldest((v: string) => cold('--(x|)', { x: v }), {
          capacity: 5,
          dropped: () => {},
          idle: () => idle.push(scheduler.now()),
        }),
      );
      expectObservable(worked).toBe('---a-------(b|)');
    });
    expect(idle).to.deep.equal([3, 11]);
  });

  it('takes work that finishes at once without nesting calls (a long line drains in a loop)', () => {
    const results: number[] = [];
    const values = Array.from({ length: 5_000 }, (_, i) => i);
    of(...values)
      .pipe(queueDroppingOldest((v: number) => of(v), { capacity: 100_000, dropped: () => {} }))
      .subscribe((v) => results.push(v));
    expect(results).to.have.length(5_000);
  });
});
