import { expect } from 'chai';
import type { Socket } from 'node:net';
import type WebSocket from 'ws';
import type { EventStore, ListEventsOptions } from '../../src/store/eventStore';
import { agentStart, assistantStart, textDelta } from '../helpers/server/frames';
import { projectWithThread, rpc, startTestServer, type TestServer } from '../helpers/server/harness';
import { openStalledSse, type StalledSseClient } from '../helpers/server/sse';
import { suiteTempDirs } from '../helpers/temp/suiteDirs';

/**
 * Issue 31: 20 SSE streams catching up from seq 0 on long threads at once peaked at +600 MB. A catch-up must
 * cost what its reader takes: a page is read only once the one before it was taken (the socket drained),
 * each row is read from the store once (never read, dropped at a pause and read again), and as the store's
 * own text (no row objects built to be serialised again).
 */
describe('server: SSE catch-up from seq 0 to a slow reader (bounded memory)', () => {
  let t: TestServer;
  let writer: WebSocket;
  let nextId = 1;
  const tempDir = suiteTempDirs();

  const MAX_BUFFERED = 32 * 1024;
  const DELTA_BYTES = 4 * 1024;
  /** Several MB: more than loopback's kernel buffers take, so the server's writes back up while the reader stalls. */
  const ROWS = 2_400;

  /** Rows the thread's store reads gave back, as row objects (`list`) and as row texts. */
  const reads = { objects: 0, texts: 0 };
  function countReads(store: EventStore, threadId: () => string): void {
    const counted = store as EventStore & { listRowJson?(id: string, options?: ListEventsOptions): Promise<unknown[]> };
    const list = counted.list.bind(store);
    counted.list = async (id, options) => {
      const rows = await list(id, options);
      if (id === threadId()) reads.objects += rows.length;
      return rows;
    };
    const listRowJson = counted.listRowJson?.bind(store);
    if (listRowJson)
      counted.listRowJson = async (id, options) => {
        const rows = await listRowJson(id, options);
        if (id === threadId()) reads.texts += rows.length;
        return rows;
      };
  }

  async function appendDeltas(threadId: string, count: number): Promise<void> {
    for (let done = 0; done < count; done += 32) {
      const frames = Array.from({ length: Math.min(32, count - done) }, (_, i) =>
        textDelta(threadId, `${done + i}:`.padEnd(DELTA_BYTES, 'x'), nextId++),
      );
      await Promise.all(frames.map((frame) => rpc(writer, frame)));
    }
  }

  /** A reader that does not read yet, and the server's socket for it. */
  async function stalledReader(url: string): Promise<{ reader: StalledSseClient; onServer: Socket }> {
    const sockets = new Map<number, Socket>();
    const remember = (socket: Socket) => sockets.set(socket.remotePort!, socket);
    t.server.httpServer.on('connection', remember);
    const reader = await openStalledSse(url, { authorization: `Bearer ${t.server.token}` });
    t.server.httpServer.off('connection', remember);
    return { reader, onServer: sockets.get(reader.localPort)! };
  }

  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  before(async () => {
    t = await startTestServer({ config: { sseMaxBufferedBytes: MAX_BUFFERED, agentProviders: 'none' } });
    writer = await t.intake();
  });
  after(async () => {
    writer.close();
    await t.close();
  });

  it('reads each row from the store once, as its stored text, holds about two buffers for a stalled reader, and hands over to live rows exactly', async () => {
    const threadId = (await projectWithThread(t, await tempDir('ats-sse-catch-up-'))).thread.id as string;
    await rpc(writer, agentStart(threadId, nextId++));
    await rpc(writer, assistantStart(threadId, nextId++));
    await appendDeltas(threadId, ROWS - 2);
    countReads(t.server.store, () => threadId);

    const { reader, onServer } = await stalledReader(`${t.server.url}/api/v1/threads/${threadId}/events/stream`);
    // Wait (no assertion on time) until the server stops writing: the stalled socket holds what it may (or,
    // on a machine whose loopback buffers take the whole thread, until every row was read).
    while (onServer.writableLength < MAX_BUFFERED && reads.objects + reads.texts < ROWS) await pause(10);
    let mostUnsent = 0;
    for (let sample = 0; sample < 20; sample++) {
      mostUnsent = Math.max(mostUnsent, onServer.writableLength);
      await pause(10);
    }
    // Rows stored while the reader is stalled: dropped from the hub, read from the store after the backlog.
    await appendDeltas(threadId, 64);
    const total = ROWS + 64;
    expect(mostUnsent, 'bytes the server holds unsent for the stalled reader').to.be.at.most(2 * MAX_BUFFERED + 2 * DELTA_BYTES);

    reader.read();
    const caughtUp = await reader.events(total);
    const readsWhenCaughtUp = { ...reads }; // the live row below may be read back if it finds the socket full
    await rpc(writer, textDelta(threadId, 'live', nextId++)); // after the catch-up: a live row
    const events = await reader.events(total + 1);
    reader.close();
    expect(events.map((event) => Number(event.id))).to.deep.equal(Array.from({ length: total + 1 }, (_, i) => i + 1));
    expect(caughtUp.slice(0, 100).map((event) => event.data)).to.deep.equal(await t.json(`/threads/${threadId}/events?limit=100`));

    expect(readsWhenCaughtUp.objects, 'rows built as objects to be serialised again').to.equal(0);
    expect(readsWhenCaughtUp.texts, 'rows read from the store (each once)').to.equal(total);
  });
});
