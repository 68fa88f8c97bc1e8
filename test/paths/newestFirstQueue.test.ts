import { expect } from 'chai';
import { createNewestFirstQueue } from '../../src/paths/cache/newestFirstQueue';

/** Watch starts go one at a time, the root listed last first (`parcelTreeWatcher.ts`, issue 26). */
describe('newest-first queue (watch starts)', () => {
  it('runs one task at a time; when one ends, the most recently queued starts next', async () => {
    const queue = createNewestFirstQueue();
    const events: string[] = [];
    const task = (name: string) => async () => {
      events.push(`start ${name}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
      events.push(`end ${name}`);
      return name;
    };
    const results = await Promise.all(['a', 'b', 'c', 'd'].map((name) => queue.run(task(name))));
    expect(results).to.deep.equal(['a', 'b', 'c', 'd']);
    expect(events).to.deep.equal(['start a', 'end a', 'start d', 'end d', 'start c', 'end c', 'start b', 'end b']);
  });

  it('a task that fails (or throws before its promise) rejects its own caller only, and the next one still runs', async () => {
    const queue = createNewestFirstQueue();
    const failing = queue.run(async () => {
      throw new Error('inotify limit');
    });
    const throwing = queue.run((() => {
      throw new Error('thrown');
    }) as () => Promise<never>);
    const next = queue.run(async () => 'ran');
    const settled = await Promise.allSettled([failing, throwing, next]);
    expect(settled.map((result) => result.status)).to.deep.equal(['rejected', 'rejected', 'fulfilled']);
    expect(await next).to.equal('ran');
  });
});
