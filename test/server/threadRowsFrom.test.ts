import { expect } from 'chai';
import { lastValueFrom, Subject, takeWhile, toArray } from 'rxjs';
import type { SseChunk } from '../../src/server/sse/sseEventText';
import { threadRowsFrom } from '../../src/server/sse/threadRowsFrom';
import type { StoredThreadEvent } from '../../src/store/eventStore';

const row = (seq: number): StoredThreadEvent =>
  ({
    id: `r${seq}`,
    threadId: 'thr_a',
    seq,
    type: 'item/agentMessage/delta',
    turnId: 't1',
    scope: { kind: 'turn', turnId: 't1' },
    data: { providerThreadId: 'p' },
    createdAt: '2026-01-01T00:00:00.000Z',
  }) as StoredThreadEvent; // only seqs and order matter here, not what the row says

/** The seqs a chunk of SSE text carries (its `id:` lines). */
const seqsIn = (chunk: SseChunk) => [...chunk.text.matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1]));
const seqsOf = (chunks: SseChunk[]) => chunks.flatMap(seqsIn);

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
    const result = lastValueFrom(
      threadRowsFrom({ store: storeOf(stored), live$, pageSize: 2 }, 'thr_a', 1).pipe(
        takeWhile((chunk) => chunk.lastSeq < 6, true),
        toArray(),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 10));
    stored.push(row(6));
    live$.next(row(6));
    expect(seqsOf(await result)).to.deep.equal([2, 3, 4, 5, 6]);
  });

  it('drops live rows the backlog already delivered (no duplicate)', async () => {
    const stored = [1, 2, 3].map(row);
    const live$ = new Subject<StoredThreadEvent>();
    const result = lastValueFrom(
      threadRowsFrom({ store: storeOf(stored), live$, pageSize: 10 }, 'thr_a', 0).pipe(
        takeWhile((chunk) => chunk.lastSeq < 4, true),
        toArray(),
      ),
    );
    // Rows 2 and 3 were stored (so in the backlog) and are published live while the backlog is read.
    live$.next(row(2));
    live$.next(row(3));
    await new Promise((resolve) => setTimeout(resolve, 10));
    stored.push(row(4));
    live$.next(row(4));
    expect(seqsOf(await result)).to.deep.equal([1, 2, 3, 4]);
  });

  it('fills a gap from the store when a live row overtakes an earlier one (no skipped seq)', async () => {
    const stored = [1].map(row);
    const live$ = new Subject<StoredThreadEvent>();
    const result = lastValueFrom(
      threadRowsFrom({ store: storeOf(stored), live$, pageSize: 10 }, 'thr_a', 0).pipe(
        takeWhile((chunk) => chunk.lastSeq < 3, true),
        toArray(),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 10));
    stored.push(row(2), row(3));
    live$.next(row(3)); // row 2's live publication is late
    live$.next(row(2));
    expect(seqsOf(await result)).to.deep.equal([1, 2, 3]);
  });
});

describe('threadRowsFrom with a reader that pauses (SSE backpressure)', () => {
  const tick = () => new Promise((resolve) => setTimeout(resolve, 10));

  /** A reader that pauses once it has taken `takeBeforePause` rows (at the end of a chunk), until `resume()`. */
  function pausingReader(takeBeforePause: number) {
    const resumed$ = new Subject<void>();
    const taken: number[] = [];
    let paused = false;
    let budget = takeBeforePause;
    return {
      demand: { paused: () => paused, resumed$ },
      /** Takes a chunk's rows whole (one write); paused once `budget` rows were taken. */
      take(chunk: SseChunk) {
        const seqs = seqsIn(chunk);
        taken.push(...seqs);
        budget -= seqs.length;
        if (budget <= 0) paused = true;
      },
      resume(nextBudget = Infinity) {
        budget = nextBudget;
        paused = false;
        resumed$.next();
      },
      taken,
    };
  }
  function countingStore(rows: StoredThreadEvent[]) {
    const store = storeOf(rows);
    const counted = {
      reads: 0,
      list: (threadId: string, options?: { afterSeq?: number; limit?: number }) => (counted.reads++, store.list(threadId, options)),
    };
    return counted;
  }

  it('drops live rows while paused and reads them back from the store on resume, each once and in order', async () => {
    const stored = [1].map(row);
    const live$ = new Subject<StoredThreadEvent>();
    const reader = pausingReader(2);
    const subscription = threadRowsFrom({ store: storeOf(stored), live$, pageSize: 10 }, 'thr_a', 0, reader.demand).subscribe((r) =>
      reader.take(r),
    );
    await tick();
    for (const seq of [2, 3, 4, 5]) {
      stored.push(row(seq));
      live$.next(row(seq)); // 2 is taken and pauses the reader; 3, 4, 5 are dropped
    }
    expect(reader.taken).to.deep.equal([1, 2]);
    reader.resume();
    await tick();
    stored.push(row(6));
    live$.next(row(6));
    subscription.unsubscribe();
    expect(reader.taken).to.deep.equal([1, 2, 3, 4, 5, 6]);
  });

  it('reads the next page only once the reader took the one before, from the last row it took', async () => {
    const store = countingStore([1, 2, 3, 4, 5, 6, 7].map(row));
    const reader = pausingReader(3);
    const subscription = threadRowsFrom({ store, live$: new Subject(), pageSize: 2 }, 'thr_a', 0, reader.demand).subscribe((r) =>
      reader.take(r),
    );
    await tick();
    expect(reader.taken).to.deep.equal([1, 2, 3, 4]);
    expect(store.reads, 'no page is read past the pause').to.equal(2);
    reader.resume(2);
    await tick();
    expect(reader.taken).to.deep.equal([1, 2, 3, 4, 5, 6]);
    expect(store.reads).to.equal(3);
    reader.resume();
    await tick();
    subscription.unsubscribe();
    expect(reader.taken).to.deep.equal([1, 2, 3, 4, 5, 6, 7]);
  });

  it('a reader that pauses after every page reads each row from the store once', async () => {
    const stored = Array.from({ length: 100 }, (_, i) => row(i + 1));
    const inner = storeOf(stored);
    let rowsRead = 0;
    const store = {
      list: async (threadId: string, options?: { afterSeq?: number; limit?: number }) => {
        const rows = await inner.list(threadId, options);
        rowsRead += rows.length;
        return rows;
      },
    };
    const reader = pausingReader(1);
    const subscription = threadRowsFrom({ store, live$: new Subject(), pageSize: 1000 }, 'thr_a', 0, reader.demand).subscribe((r) =>
      reader.take(r),
    );
    for (let turn = 0; turn < 100 && reader.taken.length < 100; turn++) {
      await tick();
      reader.resume(1);
    }
    await tick();
    subscription.unsubscribe();
    expect(reader.taken).to.deep.equal(stored.map((r) => r.seq));
    // Reading a page and dropping what the pause left of it re-read rows for every pause.
    expect(rowsRead, 'rows read from the store').to.equal(100);
  });

  it('makes pages of long rows shorter: a page stays about `pageChars` of text', async () => {
    const long = (seq: number) => ({ ...row(seq), data: { providerThreadId: 'p', text: 'x'.repeat(1000) } }) as StoredThreadEvent;
    const store = countingStore(Array.from({ length: 40 }, (_, i) => long(i + 1)));
    const chunks = await lastValueFrom(
      threadRowsFrom({ store, live$: new Subject(), pageSize: 1000, pageChars: 3000 }, 'thr_a', 0).pipe(
        takeWhile((chunk) => chunk.lastSeq < 40, true),
        toArray(),
      ),
    );
    expect(seqsOf(chunks)).to.deep.equal(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(Math.max(...chunks.slice(1).map((chunk) => chunk.text.length)), 'characters of a page after the first').to.be.at.most(2 * 3000);
  });

  it('errors when a store read fails (the stream then ends; the client resumes with Last-Event-ID)', async () => {
    const store = { list: () => Promise.reject(new Error('disk gone')) };
    const failed = await lastValueFrom(threadRowsFrom({ store, live$: new Subject(), pageSize: 10 }, 'thr_a', 0)).catch(
      (error: Error) => error,
    );
    expect((failed as Error).message).to.equal('disk gone');
  });

  it('stops reading when the store has none of the rows the hub published (a deleted thread), instead of reading again and again', async () => {
    const store = countingStore([]);
    const live$ = new Subject<StoredThreadEvent>();
    const subscription = threadRowsFrom({ store, live$, pageSize: 10 }, 'thr_a', 0).subscribe();
    await tick();
    live$.next(row(3)); // ahead of the last row sent: read from the store, which has nothing
    await tick();
    subscription.unsubscribe();
    expect(store.reads).to.equal(2);
  });

  it('reads nothing on a resume when no row was missed', async () => {
    const stored = [1, 2].map(row);
    const store = countingStore(stored);
    const live$ = new Subject<StoredThreadEvent>();
    const reader = pausingReader(2);
    const subscription = threadRowsFrom({ store, live$, pageSize: 10 }, 'thr_a', 0, reader.demand).subscribe((r) => reader.take(r));
    await tick();
    const readsBefore = store.reads;
    reader.resume();
    await tick();
    stored.push(row(3));
    live$.next(row(3));
    subscription.unsubscribe();
    expect(store.reads).to.equal(readsBefore);
    expect(reader.taken).to.deep.equal([1, 2, 3]);
  });

  it('completes when the live rows complete (server shutdown), even while paused', async () => {
    const live$ = new Subject<StoredThreadEvent>();
    const reader = pausingReader(1);
    let completed = false;
    threadRowsFrom({ store: storeOf([1, 2].map(row)), live$, pageSize: 10 }, 'thr_a', 0, reader.demand).subscribe({
      next: (r) => reader.take(r),
      complete: () => (completed = true),
    });
    await tick();
    expect(reader.taken).to.deep.equal([1, 2]);
    live$.complete();
    expect(completed).to.equal(true);
  });
});
