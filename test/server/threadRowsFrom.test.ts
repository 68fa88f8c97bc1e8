import { expect } from 'chai';
import { lastValueFrom, Subject, take, toArray } from 'rxjs';
import { threadRowsFrom } from '../../src/server/sse/threadRowsFrom';
import type { StoredThreadEvent } from '../../src/store/eventStore';

const row = (seq: number): StoredThreadEvent => ({
  id: `r${seq}`,
  threadId: 'thr_a',
  seq,
  type: 'item/agentMessage/delta',
  turnId: 't1',
  scope: { kind: 'turn', turnId: 't1' },
  data: { providerThreadId: 'p' },
  createdAt: '2026-01-01T00:00:00.000Z',
});

/** A store whose rows the test controls, answering asynchronously like nedb. */
function storeOf(rows: StoredThreadEvent[]) {
  return {
    list: async (_threadId: string, options: { afterSeq?: number; limit?: number } = {}) =>
      rows.filter((r) => r.seq > (options.afterSeq ?? 0)).slice(0, options.limit ?? Infinity),
  };
}

describe('threadRowsFrom (SSE source: backlog, then live rows)', () => {
  it('reads the backlog in pages, then passes live rows that follow it', async () => {
    const stored = [1, 2, 3, 4, 5].map(row);
    const live$ = new Subject<StoredThreadEvent>();
    const result = lastValueFrom(threadRowsFrom({ store: storeOf(stored), live$, pageSize: 2 }, 'thr_a', 1).pipe(take(5), toArray()));
    await new Promise((resolve) => setTimeout(resolve, 10));
    stored.push(row(6));
    live$.next(row(6));
    expect((await result).map((r) => r.seq)).to.deep.equal([2, 3, 4, 5, 6]);
  });

  it('drops live rows the backlog already delivered (no duplicate)', async () => {
    const stored = [1, 2, 3].map(row);
    const live$ = new Subject<StoredThreadEvent>();
    const result = lastValueFrom(threadRowsFrom({ store: storeOf(stored), live$, pageSize: 10 }, 'thr_a', 0).pipe(take(4), toArray()));
    // Rows 2 and 3 were stored (so in the backlog) and are published live while the backlog is read.
    live$.next(row(2));
    live$.next(row(3));
    await new Promise((resolve) => setTimeout(resolve, 10));
    stored.push(row(4));
    live$.next(row(4));
    expect((await result).map((r) => r.seq)).to.deep.equal([1, 2, 3, 4]);
  });

  it('fills a gap from the store when a live row overtakes an earlier one (no skipped seq)', async () => {
    const stored = [1].map(row);
    const live$ = new Subject<StoredThreadEvent>();
    const result = lastValueFrom(threadRowsFrom({ store: storeOf(stored), live$, pageSize: 10 }, 'thr_a', 0).pipe(take(3), toArray()));
    await new Promise((resolve) => setTimeout(resolve, 10));
    stored.push(row(2), row(3));
    live$.next(row(3)); // row 2's live publication is late
    live$.next(row(2));
    expect((await result).map((r) => r.seq)).to.deep.equal([1, 2, 3]);
  });
});
