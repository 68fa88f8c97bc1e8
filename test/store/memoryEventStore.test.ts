import { expect } from 'chai';
import { from, lastValueFrom } from 'rxjs';
import { createMemoryEventStore } from '../../src/store/memoryEventStore';

describe('createMemoryEventStore', () => {
  it('answers append synchronously (usable inside marble tests) with seq per thread', () => {
    const store = createMemoryEventStore();
    let seqs: number[] | undefined;
    from(
      store.append(
        [1, 2, 3].map((n) => ({
          threadId: n === 2 ? 'B' : 'A',
          type: 'provider/error' as const,
          turnId: null,
          scope: { kind: 'thread' as const },
          data: { providerThreadId: 'p', providerId: 'pi', message: 'm', willRetry: false },
        })),
      ),
    ).subscribe((rows) => (seqs = rows.map((row) => row.seq)));
    expect(seqs).to.deep.equal([1, 1, 2]);
  });

  it('lists after a cursor with a limit', async () => {
    const store = createMemoryEventStore();
    await lastValueFrom(
      from(
        store.append(
          Array.from({ length: 5 }, () => ({
            threadId: 'A',
            type: 'provider/error' as const,
            turnId: null,
            scope: { kind: 'thread' as const },
            data: { providerThreadId: 'p', providerId: 'pi', message: 'm', willRetry: false },
          })),
        ),
      ),
    );
    expect((await store.list('A', { afterSeq: 2, limit: 2 })).map((row) => row.seq)).to.deep.equal([3, 4]);
    expect(await store.lastSeq('A')).to.equal(5);
  });
});
