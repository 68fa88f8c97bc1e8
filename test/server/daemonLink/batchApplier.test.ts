import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createBatchApplier, SeqConflict } from '../../../src/server/daemonLink/batchApplier';
import type { AppendBatch } from '../../../src/protocol/daemonLink';
import type { NewThreadEvent } from '../../../src/store/eventStore';
import { openNedbEventStore, type NedbEventStore } from '../../../src/store/nedb/nedbEventStore';

const event = (threadId: string, type: string, turnId: string | null = 't1'): NewThreadEvent =>
  ({
    threadId,
    type,
    turnId,
    scope: turnId ? { kind: 'turn', turnId } : { kind: 'thread' },
    data: { providerThreadId: threadId },
  }) as NewThreadEvent; // only seqs and order matter here, not what the row says

const batch = (batchId: string, firstSeqs: Record<string, number>, ...events: NewThreadEvent[]): AppendBatch => ({
  batchId,
  firstSeqs,
  events,
});

describe('link: exactly-once storage of daemon batches (real nedb store)', () => {
  let dir: string;
  let store: NedbEventStore;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'ats-applier-'));
    store = await openNedbEventStore({ dataDir: dir });
  });
  afterEach(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  const seqsOf = async (threadId: string) => (await store.list(threadId)).map((row) => `${row.seq}:${row.type}`);

  it('stores a batch and answers a re-sent copy (lost ack) from the store without storing it again', async () => {
    const applier = createBatchApplier(store);
    const b = batch('b1', { thr_a: 1 }, event('thr_a', 'turn/started'), event('thr_a', 'item/started'));
    const first = await applier.apply(b);
    const again = await applier.apply(b);
    expect(again).to.deep.equal(first);
    expect(first.map((ref) => ref.seq)).to.deep.equal([1, 2]);
    expect(await seqsOf('thr_a')).to.deep.equal(['1:turn/started', '2:item/started']);
  });

  it('stores only the part of a batch a torn write did not store, keeping seqs gapless', async () => {
    await store.append([event('thr_a', 'turn/started')]);
    const refs = await createBatchApplier(store).apply(
      batch('b1', { thr_a: 1 }, event('thr_a', 'turn/started'), event('thr_a', 'item/started'), event('thr_a', 'turn/completed')),
    );
    expect(refs.map((ref) => ref.seq)).to.deep.equal([1, 2, 3]);
    expect(await seqsOf('thr_a')).to.deep.equal(['1:turn/started', '2:item/started', '3:turn/completed']);
  });

  it('keeps each thread of a mixed batch at its own expected seq', async () => {
    await store.append([event('thr_b', 'turn/started')]);
    const refs = await createBatchApplier(store).apply(
      batch('b1', { thr_a: 1, thr_b: 2 }, event('thr_a', 'turn/started'), event('thr_b', 'item/started'), event('thr_a', 'item/started')),
    );
    expect(refs.map((ref) => ref.seq)).to.deep.equal([1, 2, 2]);
    expect(await seqsOf('thr_b')).to.deep.equal(['1:turn/started', '2:item/started']);
  });

  it('refuses a batch that would leave a gap, or whose seqs hold other events, and stores none of it', async () => {
    const applier = createBatchApplier(store);
    await store.append([event('thr_a', 'turn/started')]);
    let error: unknown;
    await applier.apply(batch('gap', { thr_a: 3 }, event('thr_a', 'item/started'))).catch((e: unknown) => (error = e));
    expect(error).to.be.instanceOf(SeqConflict);
    error = undefined;
    await applier
      .apply(batch('other', { thr_a: 1 }, event('thr_a', 'provider/unhandled'), event('thr_a', 'item/started')))
      .catch((e: unknown) => (error = e));
    expect(error).to.be.instanceOf(SeqConflict);
    expect(await seqsOf('thr_a')).to.deep.equal(['1:turn/started']);
  });

  it('stores a batch sent twice at once (old and new link) exactly once', async () => {
    const applier = createBatchApplier(store);
    const b = batch('b1', { thr_a: 1 }, ...Array.from({ length: 20 }, () => event('thr_a', 'item/agentMessage/delta')));
    const [one, two] = await Promise.all([applier.apply(b), applier.apply(b)]);
    expect(two).to.deep.equal(one);
    expect(await store.lastSeq('thr_a')).to.equal(20);
  });
});
