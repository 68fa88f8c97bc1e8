import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { from, lastValueFrom } from 'rxjs';
import type { EventStore, ListEventsOptions, NewThreadEvent, StoredThreadEvent } from '../../src/store/eventStore';
import { pageJson } from '../../src/store/pageJson';

/** One store under test; `reopen` (durable stores only) closes it and opens the same data again. */
export interface ContractSubject {
  store: EventStore;
  reopen?(): Promise<EventStore>;
  cleanup?(): Promise<void>;
}

export function appendRows(store: EventStore, events: readonly NewThreadEvent[]): Promise<StoredThreadEvent[]> {
  return lastValueFrom(from(store.append(events)));
}

export function delta(threadId: string, text: string, turnId: string | null = 'turn-1'): NewThreadEvent {
  return {
    threadId,
    type: 'item/agentMessage/delta',
    turnId,
    scope: turnId === null ? { kind: 'thread' } : { kind: 'turn', turnId },
    data: { providerThreadId: 'pi-session', itemId: 'item-1', delta: text },
  };
}

/**
 * What every EventStore adapter promises (src/store/eventStore.ts), run against each of them: memory, nedb,
 * PostgreSQL. A new adapter passes this file before anything else uses it.
 */
export function describeEventStoreContract(name: string, open: () => Promise<ContractSubject>, { durable }: { durable: boolean }): void {
  describe(`EventStore contract: ${name}`, () => {
    let subject: ContractSubject | undefined;
    let thread: (label: string) => string;
    beforeEach(async () => {
      subject = await open();
      const run = randomUUID().slice(0, 8);
      thread = (label) => `thr_${label}_${run}`;
    });
    afterEach(async () => {
      await subject?.store.close();
      await subject?.cleanup?.();
      subject = undefined;
    });
    const store = () => subject!.store;

    it('numbers each thread 1, 2, 3… in the order given, threads interleaved in one append', async () => {
      const [a, b] = [thread('a'), thread('b')];
      const rows = await appendRows(store(), [delta(a, 'a1'), delta(b, 'b1'), delta(a, 'a2')]);
      expect(rows.map((row) => [row.threadId, row.seq, row.data])).to.deep.equal([
        [a, 1, { providerThreadId: 'pi-session', itemId: 'item-1', delta: 'a1' }],
        [b, 1, { providerThreadId: 'pi-session', itemId: 'item-1', delta: 'b1' }],
        [a, 2, { providerThreadId: 'pi-session', itemId: 'item-1', delta: 'a2' }],
      ]);
      const more = await appendRows(store(), [delta(a, 'a3')]);
      expect(more.map((row) => row.seq)).to.deep.equal([3]);
    });

    it('lists exactly the rows append returned, with the store fields (id, seq, ISO createdAt)', async () => {
      const a = thread('a');
      const odd = {
        ...delta(a, 'x'),
        data: {
          providerThreadId: 'p',
          itemId: 'i',
          delta: 'nul \u0000, quote " and unicode ✓ 𝄞',
          $schema: 'kept',
          'a.b': { nested: [1, null, true] },
        },
      } as NewThreadEvent;
      const thread1 = { ...delta(a, 'thread-scoped', null) };
      const appended = await appendRows(store(), [odd, thread1]);
      const listed = await store().list(a);
      expect(listed).to.deep.equal(appended);
      for (const row of listed) {
        expect(row.id).to.be.a('string').and.not.equal('');
        expect(new Date(row.createdAt).toISOString()).to.equal(row.createdAt);
      }
      expect(listed[1]!.scope).to.deep.equal({ kind: 'thread' });
    });

    it('pages by cursor: rows after afterSeq, at most limit, never skipping a seq', async () => {
      const a = thread('a');
      await appendRows(
        store(),
        Array.from({ length: 7 }, (_, i) => delta(a, `d${i}`)),
      );
      expect((await store().list(a, { afterSeq: 2, limit: 3 })).map((row) => row.seq)).to.deep.equal([3, 4, 5]);
      expect((await store().list(a, { afterSeq: 5 })).map((row) => row.seq)).to.deep.equal([6, 7]);
      expect(await store().list(a, { afterSeq: 7, limit: 10 })).to.deep.equal([]);
      expect(await store().list(thread('none'))).to.deep.equal([]);
    });

    /** A page as JSON text (what `GET …/events` sends) must be the text of the page `list` gives, byte for byte. */
    const expectPageJsonOf = async (threadId: string, options?: ListEventsOptions) => {
      const page = await pageJson(store(), threadId, options);
      const rows = await store().list(threadId, options);
      expect(page.json).to.equal(JSON.stringify(rows));
      expect(page.rows).to.equal(rows.length);
    };

    it('gives a page as the exact JSON text of the rows list gives, for cursors and limits inside, across and past a thread', async () => {
      const a = thread('a');
      const odd = {
        ...delta(a, 'x'),
        data: { providerThreadId: 'p', itemId: 'i', delta: 'quote " \\ ✓ 𝄞 \ud800', $schema: 'kept', 'a.b': [1, null, { createdAt: 'x' }] },
      } as NewThreadEvent;
      const otherScope = { ...delta(a, 'other'), scope: { kind: 'turn', turnId: 'turn-2' } } as NewThreadEvent;
      await appendRows(store(), [
        odd,
        delta(a, 'thread-scoped', null),
        otherScope,
        ...Array.from({ length: 7 }, (_, i) => delta(a, `d${i}`)),
      ]);
      for (const options of [undefined, { afterSeq: 0, limit: 3 }, { afterSeq: 2, limit: 5 }, { afterSeq: 8 }, { afterSeq: 10, limit: 5 }])
        await expectPageJsonOf(a, options);
      await expectPageJsonOf(thread('none'), { limit: 10 });
    });

    it('tells the last seq of a thread, 0 for one never written', async () => {
      const a = thread('a');
      expect(await store().lastSeq(a)).to.equal(0);
      await appendRows(store(), [delta(a, '1'), delta(a, '2')]);
      expect(await store().lastSeq(a)).to.equal(2);
    });

    it('keeps seqs gapless and unique under appends to one thread at once, each call in call order', async () => {
      const a = thread('a');
      const calls = await Promise.all(Array.from({ length: 20 }, (_, i) => appendRows(store(), [delta(a, `${i}.1`), delta(a, `${i}.2`)])));
      const seqs = calls
        .flat()
        .map((row) => row.seq)
        .sort((x, y) => x - y);
      expect(seqs).to.deep.equal(Array.from({ length: 40 }, (_, i) => i + 1));
      calls.forEach((rows, i) => expect(rows.map((row) => row.seq)).to.deep.equal([2 * i + 1, 2 * i + 2]));
      expect((await store().list(a)).map((row) => (row.data as { delta: string }).delta)).to.deep.equal(
        calls.flat().map((row) => (row.data as { delta: string }).delta),
      );
    });

    it('deletes a thread: its rows are gone, its seq starts over, other threads keep theirs', async () => {
      const [a, b] = [thread('a'), thread('b')];
      await appendRows(store(), [delta(a, 'a1'), delta(b, 'b1'), delta(a, 'a2')]);
      await store().list(a); // read once, so a store that holds read threads in memory holds this one
      await store().deleteThread(a);
      expect(await store().list(a)).to.deep.equal([]);
      expect(await store().lastSeq(a)).to.equal(0);
      expect((await store().list(b)).map((row) => row.seq)).to.deep.equal([1]);
      await store().deleteThread(a); // a second delete (a delete finished again after a crash) is done at once
      await store().deleteThread(thread('never-written'));
    });

    it('answers an empty append with no rows', async () => {
      expect(await appendRows(store(), [])).to.deep.equal([]);
    });

    if (durable)
      it('keeps every row across a close and reopen', async () => {
        const a = thread('a');
        const appended = await appendRows(store(), [delta(a, 'kept'), delta(a, 'also')]);
        subject!.store = await subject!.reopen!();
        expect(await store().list(a)).to.deep.equal(appended);
        expect((await appendRows(store(), [delta(a, 'next')])).map((row) => row.seq)).to.deep.equal([3]);
      });

    if (durable)
      it('keeps a deleted thread deleted across a close and reopen, rows appended in the same second included', async () => {
        const [a, b] = [thread('a'), thread('b')];
        await appendRows(store(), [delta(a, 'gone'), delta(b, 'kept')]);
        await appendRows(store(), [delta(a, 'gone too')]);
        await store().deleteThread(a);
        subject!.store = await subject!.reopen!();
        expect(await store().list(a)).to.deep.equal([]);
        expect(await store().lastSeq(a)).to.equal(0);
        expect((await store().list(b)).map((row) => row.seq)).to.deep.equal([1]);
      });

    if (durable)
      it('gives a page of a thread not read since the store opened as the JSON text of its rows', async () => {
        const a = thread('a');
        await appendRows(store(), [delta(a, 'one'), delta(a, 'two', null), delta(a, 'three')]);
        subject!.store = await subject!.reopen!();
        // Before anything reads the thread: the nedb store reads a first page from the file's start.
        const page = await pageJson(store(), a, { afterSeq: 1, limit: 2 });
        expect(page.json).to.equal(JSON.stringify(await store().list(a, { afterSeq: 1, limit: 2 })));
        await expectPageJsonOf(a);
      });
  });
}
