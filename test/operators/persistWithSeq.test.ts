import { expect } from 'chai';
import fc from 'fast-check';
import { delay, from, lastValueFrom, map, toArray, type ObservableInput } from 'rxjs';
import type { ThreadEvents } from '../../src/operators/stageValues';
import { persistWithSeq } from '../../src/operators/persistWithSeq';
import type { Step } from '../../src/operators/stageValues';
import type { EventStore, NewThreadEvent, StoredThreadEvent } from '../../src/store/eventStore';
import { createMemoryEventStore } from '../../src/store/memoryEventStore';
import { sequentialIds, testScheduler } from '../helpers/pipeline/marbles';

const event = (threadId: string, type = 'item/agentMessage/delta'): NewThreadEvent =>
  ({
    threadId,
    type,
    turnId: null,
    scope: { kind: 'thread' },
    data: { providerThreadId: threadId },
  }) as NewThreadEvent; // only seqs and order matter here, not what the row says
const step = (correlationId: number, ...events: NewThreadEvent[]): Step<ThreadEvents> => ({
  correlationId,
  ok: true,
  value: { threadId: events[0]?.threadId ?? 'A', events, turnOpen: true },
});
const seqsOf = (out: Step<{ rows: Array<{ threadId: string; seq: number }> }>) =>
  out.ok ? out.value.rows.map((row) => `${row.threadId}${row.seq}`) : out.error.message;

/** Wraps a store so each append answers `frames` later and counts how many appends were made. */
function slowStore(frames: number) {
  const inner = createMemoryEventStore({ newId: sequentialIds('row'), now: () => new Date(0) });
  const calls: number[] = [];
  const store: EventStore = {
    ...inner,
    append: (events) => {
      calls.push(events.length);
      return from(inner.append(events)).pipe(delay(frames));
    },
  };
  return { store, calls };
}

/**
 * A store whose first append fails as `fail` says (an error result, or a throw); later appends go to an
 * in-memory store through `rest`.
 */
function storeFailingFirst(
  fail: () => ObservableInput<StoredThreadEvent[]>,
  rest: (inner: EventStore) => EventStore['append'] = (inner) => (events) => inner.append(events),
): EventStore {
  const inner = createMemoryEventStore();
  let appends = 0;
  return { ...inner, append: (events) => (appends++ === 0 ? fail() : rest(inner)(events)) };
}

describe('persistWithSeq()', () => {
  it('assigns seq per thread through the store and keeps input order', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const store = createMemoryEventStore();
      const input = cold('a-b-c|', { a: step(1, event('A'), event('A')), b: step(2, event('B')), c: step(3, event('A')) });
      expectObservable(input.pipe(persistWithSeq(store), map(seqsOf))).toBe('a-b-c|', { a: ['A1', 'A2'], b: ['B1'], c: ['A3'] });
    });
  });

  it('batches frames that arrive while an append is in flight into one append (group commit)', () => {
    const { store, calls } = slowStore(3);
    testScheduler().run(({ cold, expectObservable }) => {
      const input = cold('abc|', { a: step(1, event('A')), b: step(2, event('B')), c: step(3, event('A')) });
      expectObservable(input.pipe(persistWithSeq(store), map(seqsOf))).toBe('---a--(bc|)', { a: ['A1'], b: ['B1'], c: ['A2'] });
    });
    expect(calls).to.deep.equal([1, 2]);
  });

  it('passes rejected frames and frames without events through in order, without an append', () => {
    const { store, calls } = slowStore(0);
    testScheduler().run(({ cold, expectObservable }) => {
      const rejected: Step<ThreadEvents> = { correlationId: 2, ok: false, error: { code: -32601, message: 'Method not found' } };
      const input = cold('a-b-c|', { a: step(1), b: rejected, c: step(3) });
      expectObservable(input.pipe(persistWithSeq(store), map(seqsOf))).toBe('a-b-c|', { a: [], b: 'Method not found', c: [] });
    });
    expect(calls).to.deep.equal([]);
  });

  it('turns a failed append into error values for that batch only; the stream goes on', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const store = storeFailingFirst(() => cold('#', undefined, new Error('disk full')));
      const input = cold('a-b|', { a: step(1, event('A')), b: step(2, event('A')) });
      const out = input.pipe(
        persistWithSeq(store),
        map((s) => (s.ok ? seqsOf(s) : s.error.code)),
      );
      expectObservable(out).toBe('a-b|', { a: -32603, b: ['A1'] });
    });
  });

  it('rejects, in input order, the frames of a failed thread queued behind its failed append; other threads are stored', () => {
    const lost: string[][] = [];
    testScheduler().run(({ cold, expectObservable }) => {
      const store = storeFailingFirst(
        () => cold('---#', undefined, new Error('disk full')),
        (inner) => (events) => from(inner.append(events)).pipe(delay(3)),
      );
      // b and c queue while a is being written; c was built on a's rows, b was not.
      const input = cold('abc|', { a: step(1, event('A')), b: step(2, event('B')), c: step(3, event('A')) });
      const out = input.pipe(
        persistWithSeq(store, { storeFailed: (threadIds) => lost.push([...threadIds]) }),
        map((s) => (s.ok ? seqsOf(s) : s.error.code)),
      );
      expectObservable(out).toBe('---a--(bc|)', { a: -32603, b: ['B1'], c: -32603 });
    });
    expect(lost).to.deep.equal([['A']]);
  });

  it('rejects only its batch when the store throws instead of failing its result', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const store = storeFailingFirst(() => {
        throw new Error('adapter bug');
      });
      const input = cold('a-b|', { a: step(1, event('A')), b: step(2, event('B')) });
      expectObservable(
        input.pipe(
          persistWithSeq(store),
          map((s) => (s.ok ? seqsOf(s) : s.error.code)),
        ),
      ).toBe('a-b|', { a: -32603, b: ['B1'] });
    });
  });

  it('property: any interleaving of many threads gives each thread seqs exactly 1..n', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom('A', 'B', 'C', 'D', 'E'), fc.integer({ min: 0, max: 3 })), { maxLength: 60 }),
        fc.integer({ min: 1, max: 4 }),
        async (frames, maxBatch) => {
          const store = createMemoryEventStore();
          const slow: EventStore = {
            ...store,
            append: (events) => Promise.resolve().then(() => lastValueFrom(from(store.append(events)))),
          };
          const steps = frames.map(([threadId, count], i) => step(i + 1, ...Array.from({ length: count }, () => event(threadId))));
          const out = await lastValueFrom(from(steps).pipe(persistWithSeq(slow, { maxBatchFrames: maxBatch }), toArray()));
          expect(out.map((s) => s.correlationId)).to.deep.equal(steps.map((s) => s.correlationId));
          for (const threadId of ['A', 'B', 'C', 'D', 'E']) {
            const seqs = out
              .flatMap((s) => (s.ok ? s.value.rows : []))
              .filter((row) => row.threadId === threadId)
              .map((row) => row.seq);
            expect(seqs).to.deep.equal(seqs.map((_, i) => i + 1));
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});
