import { expect } from 'chai';
import WebSocket from 'ws';
import type { NewThreadEvent } from '../../src/store/eventStore';
import { agentStart, assistantStart, textDelta } from '../helpers/server/frames';
import { projectWithThread, rpc, startTestServer, type TestServer } from '../helpers/server/harness';
import { suiteTempDirs } from '../helpers/temp/suiteDirs';

/** Rows of a thread once its turn and its agent message are open: `turn/started`, `item/started`, a first delta. */
const BEFORE_DELTAS = 3;

interface Answer {
  id: number;
  result?: { seqs: number[] };
  error?: { code: number; message: string };
}

/** Sends every frame back to back on one socket (a burst, as a busy agent does) and collects each answer by id. */
function burst(socket: WebSocket, frames: Array<{ id: number }>): Promise<Map<number, Answer>> {
  const answers = new Map<number, Answer>();
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const answer = JSON.parse(data.toString()) as Answer;
      answers.set(answer.id, answer);
      if (answers.size === frames.length) {
        socket.off('message', onMessage);
        resolve(answers);
      }
    };
    socket.on('message', onMessage);
    for (const frame of frames) socket.send(JSON.stringify(frame));
  });
}

describe('server: intake group commit (frames arriving together on one socket)', () => {
  let t: TestServer;
  let socket: WebSocket;
  const tempDir = suiteTempDirs();

  before(async () => (t = await startTestServer({ config: { agentProviders: 'none' } })));
  beforeEach(async () => (socket = await t.intake()));
  afterEach(() => socket.close());
  after(() => t.close());

  /** Threads with an open turn and an agent message that has its item, so each later delta frame stores one row. */
  async function streamingThreads(count: number): Promise<string[]> {
    const threadIds: string[] = [];
    for (let i = 0; i < count; i++) {
      const threadId = (await projectWithThread(t, await tempDir('ats-group-'))).thread.id as string;
      await rpc(socket, agentStart(threadId, 1));
      await rpc(socket, assistantStart(threadId, 2));
      await rpc(socket, textDelta(threadId, 'first', 3));
      expect(await t.server.store.lastSeq(threadId)).to.equal(BEFORE_DELTAS);
      threadIds.push(threadId);
    }
    return threadIds;
  }

  /** Counts the store appends the server makes meanwhile (the real store underneath). */
  function countAppends(): { count(): number; restore(): void } {
    const { store } = t.server;
    const append = store.append;
    let count = 0;
    store.append = (events) => {
      count++;
      return append.call(store, events);
    };
    return { count: () => count, restore: () => void (store.append = append) };
  }

  it('stores many interleaved frames of several threads in few appends, each thread in send order with gapless seqs', async () => {
    const threadIds = await streamingThreads(5);
    const perThread = 200;
    const frames = [];
    for (let i = 0; i < perThread; i++)
      for (const [n, threadId] of threadIds.entries()) frames.push(textDelta(threadId, `d${i} `, 1000 + i * threadIds.length + n));
    const appends = countAppends();
    const answers = await burst(socket, frames as Array<{ id: number }>).finally(appends.restore);

    // Every frame acked with its own row's seq, in the order its thread's frames were sent.
    for (const [n, threadId] of threadIds.entries()) {
      const seqs = Array.from({ length: perThread }, (_, i) => answers.get(1000 + i * threadIds.length + n)!.result!.seqs);
      expect(seqs.flat(), threadId).to.deep.equal(Array.from({ length: perThread }, (_, i) => BEFORE_DELTAS + 1 + i));
      const rows = await t.json(`/threads/${threadId}/events?limit=1000`);
      expect(rows.map((row: { seq: number }) => row.seq)).to.deep.equal(Array.from({ length: BEFORE_DELTAS + perThread }, (_, i) => i + 1));
      const deltas = rows
        .filter((row: { type: string }) => row.type === 'item/agentMessage/delta')
        .map((row: { data: { delta: string } }) => row.data.delta);
      expect(deltas).to.deep.equal(['first', ...Array.from({ length: perThread }, (_, i) => `d${i} `)]);
    }
    // Group commit: frames that arrived together went into shared appends, not one append each.
    expect(appends.count()).to.be.lessThan(frames.length / 4);
  });

  it('rejects exactly the frames of a failed append with a JSON-RPC error; the other frames and later ones are stored', async () => {
    const threadIds = await streamingThreads(4);
    const { store } = t.server;
    const append = store.append;
    let failed: readonly NewThreadEvent[] = [];
    store.append = (events) => {
      store.append = append; // only this one append fails
      failed = events;
      return Promise.reject(new Error('disk full'));
    };
    const frames = threadIds.map((threadId, i) => textDelta(threadId, `lost? ${i}`, 100 + i));
    const answers = await burst(socket, frames as Array<{ id: number }>).finally(() => (store.append = append));

    const failedThreads = new Set(failed.map((event) => event.threadId));
    expect(failedThreads.size).to.be.greaterThan(0);
    for (const [i, threadId] of threadIds.entries()) {
      const answer = answers.get(100 + i)!;
      if (failedThreads.has(threadId)) {
        expect(answer.error?.code, threadId).to.equal(-32603);
        expect(answer.error?.message).to.equal('Could not store the events');
      } else {
        expect(answer.result, threadId).to.deep.equal({ seqs: [BEFORE_DELTAS + 1] });
      }
    }

    // The ingest recovers: the next frame of every thread is stored right after what really is stored.
    for (const [i, threadId] of threadIds.entries()) {
      const next = await rpc(socket, textDelta(threadId, 'after', 200 + i));
      expect(next.result.seqs, threadId).to.deep.equal([BEFORE_DELTAS + (failedThreads.has(threadId) ? 1 : 2)]);
      const rows = await t.json(`/threads/${threadId}/events`);
      expect(rows.map((row: { seq: number }) => row.seq)).to.deep.equal(Array.from({ length: rows.length }, (_, k) => k + 1));
      const deltas = rows
        .filter((row: { type: string }) => row.type === 'item/agentMessage/delta')
        .map((row: { data: { delta: string } }) => row.data.delta);
      expect(deltas).to.deep.equal(failedThreads.has(threadId) ? ['first', 'after'] : ['first', `lost? ${i}`, 'after']);
    }
  });
});
