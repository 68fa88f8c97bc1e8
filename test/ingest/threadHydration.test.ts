import { expect } from 'chai';
import type { IngestFrame } from '../../src/operators/stageValues';
import type { StoredThreadEvent } from '../../src/store/eventStore';
import { createThreadHydration } from '../../src/ingest/threadHydration';

/** Store reads the test ends by hand, and everything the hydration sends or refuses, in order. */
function harness() {
  const reads: Array<{ threadId: string; resolve(rows: StoredThreadEvent[]): void; reject(cause: Error): void }> = [];
  const log: string[] = [];
  const answers = new Map<number, () => void>();
  let nextId = 100;
  const hydration = createThreadHydration({
    read: (threadId) => new Promise((resolve, reject) => reads.push({ threadId, resolve, reject })),
    processEpoch: 'now',
    send: (frame) => log.push('input' in frame ? `${frame.input.kind}:${frame.input.threadId}` : `frame:${frame.correlationId}`),
    refuse: (frame, error) => log.push(`refused:${frame.correlationId}:${error.message}`),
    expectAnswer: () => {
      const correlationId = nextId++;
      return { correlationId, answered: new Promise<void>((resolve) => answers.set(correlationId, resolve)) };
    },
  });
  /** The pipeline answers every restored input sent so far. */
  const answerAll = () => {
    for (const resolve of answers.values()) resolve();
    answers.clear();
  };
  const frame = (correlationId: number): IngestFrame => ({ correlationId, frame: {} });
  return { hydration, reads, log, answerAll, frame };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('thread hydration: reading a thread back, parking its frames, forgetting it', () => {
  it('parks the frames of an unseen thread behind one read, then sends the restored state first and the frames in arrival order', async () => {
    const { hydration, reads, log, frame } = harness();
    hydration.admit('A', frame(1));
    hydration.admit('B', frame(2));
    hydration.admit('A', frame(3));
    expect(reads.map((read) => read.threadId)).to.deep.equal(['A', 'B']);
    expect([...hydration.parkedIds()]).to.have.members([1, 2, 3]);
    reads[1]!.resolve([]);
    reads[0]!.resolve([]);
    await tick();
    expect(log).to.deep.equal(['restored:B', 'frame:2', 'restored:A', 'frame:1', 'frame:3']);
    expect([...hydration.parkedIds()]).to.deep.equal([]);
    hydration.admit('A', frame(4));
    expect(log.at(-1)).to.equal('frame:4'); // read already: straight on, no second read
    expect(reads).to.have.lengthOf(2);
  });

  it('refuses the parked frames of a read that failed, and reads again for the next frame', async () => {
    const { hydration, reads, log, frame } = harness();
    hydration.admit('A', frame(1));
    hydration.admit('A', frame(2));
    reads[0]!.reject(new Error('disk on fire'));
    await tick();
    expect(log).to.deep.equal(['refused:1:Could not read the thread from the store', 'refused:2:Could not read the thread from the store']);
    hydration.admit('A', frame(3));
    reads[1]!.resolve([]);
    await tick();
    expect(log.slice(2)).to.deep.equal(['restored:A', 'frame:3']);
  });

  it('after forget, the next frame waits for a fresh read and a fresh restored state', async () => {
    const { hydration, reads, log, frame } = harness();
    hydration.admit('A', frame(1));
    reads[0]!.resolve([]);
    await tick();
    hydration.forget(['A']);
    hydration.admit('A', frame(2));
    expect(log).to.deep.equal(['restored:A', 'frame:1']);
    reads[1]!.resolve([]);
    await tick();
    expect(log.slice(2)).to.deep.equal(['restored:A', 'frame:2']);
  });

  it('a forget while the read runs makes it read again: the state sent is never older than the forget', async () => {
    const { hydration, reads, log, frame } = harness();
    hydration.admit('A', frame(1));
    hydration.forget(['A']);
    reads[0]!.resolve([]);
    await tick();
    expect(log).to.deep.equal([]);
    expect(reads).to.have.lengthOf(2);
    reads[1]!.resolve([]);
    await tick();
    expect(log).to.deep.equal(['restored:A', 'frame:1']);
  });

  it('restored() resolves only once the pipeline has answered the restored input', async () => {
    const { hydration, reads, answerAll } = harness();
    let done = false;
    void hydration.restored('A').then(() => (done = true));
    reads[0]!.resolve([]);
    await tick();
    expect(done).to.equal(false);
    answerAll();
    await tick();
    expect(done).to.equal(true);
  });

  it('hands the thread’s rows over as the state they tell, with this process’s epoch', async () => {
    const sent: IngestFrame[] = [];
    let rowsRead!: (rows: StoredThreadEvent[]) => void;
    const hydration = createThreadHydration({
      read: () => new Promise((resolve) => (rowsRead = resolve)),
      processEpoch: 'epoch-7',
      send: (frame) => sent.push(frame),
      refuse: () => undefined,
      expectAnswer: () => ({ correlationId: 1, answered: Promise.resolve() }),
    });
    hydration.admit('A', { correlationId: 2, frame: {} });
    rowsRead([
      {
        id: 'r1',
        threadId: 'A',
        seq: 1,
        type: 'turn/started',
        turnId: 'old',
        scope: { kind: 'turn', turnId: 'old' },
        data: { providerThreadId: 'A', origin: 'agent', processEpoch: 'epoch-1' },
        createdAt: '',
      },
    ]);
    await tick();
    const restored = sent[0]!;
    if (!('input' in restored) || restored.input.kind !== 'restored') throw new Error('no restored input first');
    expect(restored.input.processEpoch).to.equal('epoch-7');
    expect(restored.input.state.turn).to.deep.include({ id: 'old', processEpoch: 'epoch-1' });
  });
});
