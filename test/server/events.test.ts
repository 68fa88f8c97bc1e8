import { expect } from 'chai';
import { once } from 'node:events';
import type { Socket } from 'node:net';
import type WebSocket from 'ws';
import { agentStart, assistantStart, textDelta } from '../helpers/server/frames';
import { openSse, openStalledSse, type StalledSseClient } from '../helpers/server/sse';
import { projectWithThread, rpc, startTestServer, type TestServer } from '../helpers/server/harness';
import { suiteTempDirs } from '../helpers/temp/suiteDirs';

describe('server: reading thread events (page cursor and SSE)', () => {
  let t: TestServer;
  let socket: WebSocket;
  let nextId = 1;

  /** A thread whose turn is open and has streamed `count` deltas: seqs 1 (turn/started), 2 (item/started), then deltas. */
  async function threadWithRows(deltas: number): Promise<string> {
    const folder = await tempDir('ats-events-');
    const threadId = (await projectWithThread(t, folder)).thread.id;
    await rpc(socket, agentStart(threadId, nextId++));
    await rpc(socket, assistantStart(threadId, nextId++));
    for (let i = 0; i < deltas; i++) await rpc(socket, textDelta(threadId, `d${i}`, nextId++));
    return threadId;
  }
  const seqsOf = (rows: { seq: number }[]) => rows.map((row) => row.seq);
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
  const headers = () => ({ authorization: `Bearer ${t.server.token}` });

  const MAX_BUFFERED = 32 * 1024;
  /** Deltas this big fill socket buffers with few frames; one SSE message carries one delta plus the row around it. */
  const DELTA_BYTES = 16 * 1024;
  const bigDelta = (i: number) => `${i}:`.padEnd(DELTA_BYTES, 'x');

  /** Opens a reader that does not read, and finds the server's socket for it. */
  async function stalledReader(on: TestServer, url: string): Promise<{ reader: StalledSseClient; onServer: Socket }> {
    const sockets = new Map<number, Socket>();
    const remember = (socket: Socket) => sockets.set(socket.remotePort!, socket);
    on.server.httpServer.on('connection', remember);
    const reader = await openStalledSse(url, { authorization: `Bearer ${on.server.token}` });
    on.server.httpServer.off('connection', remember);
    return { reader, onServer: sockets.get(reader.localPort)! };
  }

  /** A thread on another server whose turn is open: seqs 1 and 2 are stored. */
  async function openThreadOn(on: TestServer, writer: WebSocket): Promise<string> {
    const folder = await tempDir('ats-events-other-');
    const threadId = (await projectWithThread(on, folder)).thread.id;
    await rpc(writer, agentStart(threadId, nextId++));
    await rpc(writer, assistantStart(threadId, nextId++));
    return threadId;
  }

  /** Appends `count` big deltas to a thread through the intake, 16 frames in flight. */
  async function appendBig(writer: WebSocket, threadId: string, count: number): Promise<void> {
    for (let done = 0; done < count; done += 16) {
      const frames = Array.from({ length: Math.min(16, count - done) }, (_, i) => textDelta(threadId, bigDelta(done + i), nextId++));
      await Promise.all(frames.map((frame) => rpc(writer, frame)));
    }
  }

  before(async () => {
    t = await startTestServer({ config: { sseHeartbeatMs: 50, eventsPageMax: 5, sseMaxBufferedBytes: MAX_BUFFERED } });
    socket = await t.intake();
  });
  after(async () => {
    socket.close();
    await t.close();
  });

  const tempDir = suiteTempDirs();

  it('pages by cursor: afterSeq + limit never skip or repeat a seq', async () => {
    const threadId = await threadWithRows(10);
    const seen: number[] = [];
    let afterSeq = 0;
    for (;;) {
      const page = await t.json(`/threads/${threadId}/events?afterSeq=${afterSeq}&limit=3`);
      if (page.length === 0) break;
      seen.push(...seqsOf(page));
      afterSeq = page[page.length - 1].seq;
    }
    expect(seen).to.deep.equal(range(1, 12));
  });

  it('rejects a limit above eventsPageMax and a negative afterSeq with 400 invalid_query', async () => {
    const threadId = await threadWithRows(0);
    for (const query of ['limit=6', 'afterSeq=-1', 'limit=abc', 'extra=1']) {
      const response = await t.api(`/threads/${threadId}/events?${query}`);
      expect(response.status, query).to.equal(400);
      expect(((await response.json()) as any).code).to.equal('invalid_query');
    }
  });

  it('answers 404 thread_not_found for events of an unknown thread', async () => {
    const response = await t.api('/threads/thr_unknown/events');
    expect(response.status).to.equal(404);
    expect(((await response.json()) as any).code).to.equal('thread_not_found');
  });

  it('SSE: sends the backlog then live rows, with id = seq', async () => {
    const threadId = await threadWithRows(7); // 9 rows: more than one store page of 5
    const stream = await openSse(`${t.server.url}/api/v1/threads/${threadId}/events/stream`, headers());
    expect(stream.status).to.equal(200);
    expect(stream.contentType).to.match(/^text\/event-stream/);
    await stream.events(9);
    await rpc(socket, textDelta(threadId, 'live', nextId++));
    const events = await stream.events(10);
    stream.close();
    expect(events.map((e) => Number(e.id))).to.deep.equal(range(1, 10));
    expect(events.map((e) => e.data.seq)).to.deep.equal(range(1, 10));
    expect(events[9].data.data.delta).to.equal('live');
  });

  it('SSE: resumes exactly after Last-Event-ID, which wins over ?afterSeq', async () => {
    const threadId = await threadWithRows(4); // 6 rows
    const stream = await openSse(`${t.server.url}/api/v1/threads/${threadId}/events/stream?afterSeq=1`, {
      ...headers(),
      'last-event-id': '4',
    });
    expect(seqsOf((await stream.events(2)).map((e) => e.data))).to.deep.equal([5, 6]);
    stream.close();
    const fromQuery = await openSse(`${t.server.url}/api/v1/threads/${threadId}/events/stream?afterSeq=3`, headers());
    expect(seqsOf((await fromQuery.events(3)).map((e) => e.data))).to.deep.equal([4, 5, 6]);
    fromQuery.close();
  });

  it('SSE: no gap and no duplicate when rows are stored while the stream connects', async () => {
    const threadId = await threadWithRows(0);
    const writer = await t.intake();
    const writes = Promise.all(Array.from({ length: 40 }, (_, i) => rpc(writer, textDelta(threadId, `x${i}`, 10_000 + i))));
    const streams = await Promise.all(
      [0, 0, 1, 2].map((afterSeq) => openSse(`${t.server.url}/api/v1/threads/${threadId}/events/stream?afterSeq=${afterSeq}`, headers())),
    );
    await writes;
    // One more row after every stream has caught up: a duplicate of an earlier row would arrive before it.
    await Promise.all(streams.map((stream, index) => stream.events(42 - [0, 0, 1, 2][index]!)));
    await rpc(writer, textDelta(threadId, 'marker', 20_000));
    writer.close();
    for (const [index, afterSeq] of [0, 0, 1, 2].entries()) {
      const events = await streams[index]!.events(43 - afterSeq);
      streams[index]!.close();
      expect(events.map((e) => e.data.seq)).to.deep.equal(range(afterSeq + 1, 43));
    }
  });

  it('SSE: sends heartbeat comment lines while idle', async () => {
    const threadId = await threadWithRows(0);
    const stream = await openSse(`${t.server.url}/api/v1/threads/${threadId}/events/stream?afterSeq=2`, headers());
    expect(await stream.comments(3)).to.include('heartbeat');
    stream.close();
  });

  it('SSE: a bad Last-Event-ID is a 400 problem, an unknown thread a 404', async () => {
    const threadId = await threadWithRows(0);
    const bad = await t.api(`/threads/${threadId}/events/stream`, { headers: { 'last-event-id': 'abc' } });
    expect(bad.status).to.equal(400);
    const unknown = await t.api('/threads/thr_unknown/events/stream');
    expect(unknown.status).to.equal(404);
    expect(unknown.headers.get('content-type')).to.equal('application/problem+json');
  });

  it('SSE backpressure: a reader that stops reading holds a bounded buffer, delays no other reader, and later gets every row once', async () => {
    const threadId = await threadWithRows(0); // seqs 1, 2
    const url = `${t.server.url}/api/v1/threads/${threadId}/events/stream`;
    const { reader: slow, onServer: slowOnServer } = await stalledReader(t, url);
    const fast = await openSse(url, headers());
    let rows = 2;
    // Until the slow reader's kernel buffers (a few MB on loopback) are full, the server has nothing unsent.
    while (slowOnServer.writableLength === 0) {
      await appendBig(socket, threadId, 16);
      rows += 16;
    }
    let mostUnsent = 0;
    for (let batch = 0; batch < 16; batch++) {
      await appendBig(socket, threadId, 16); // 4 MiB more in all
      rows += 16;
      mostUnsent = Math.max(mostUnsent, slowOnServer.writableLength);
    }
    expect(mostUnsent, 'bytes the server holds for the slow reader').to.be.at.most(MAX_BUFFERED + 2 * DELTA_BYTES);

    // The fast reader has everything while the slow one still reads nothing.
    expect(seqsOf((await fast.events(rows)).map((e) => e.data))).to.deep.equal(range(1, rows));
    fast.close();

    slow.read();
    await slow.events(rows);
    await rpc(socket, textDelta(threadId, 'after', nextId++)); // back to live rows once caught up
    const events = await slow.events(rows + 1);
    slow.close();
    expect(events.map((e) => Number(e.id))).to.deep.equal(range(1, rows + 1));
    expect(events.map((e) => e.data.seq)).to.deep.equal(range(1, rows + 1));
  });

  it('SSE backpressure: a reader that stays full past sseStallMs is reset, and Last-Event-ID resumes it exactly', async () => {
    const other = await startTestServer({ config: { sseStallMs: 50, sseMaxBufferedBytes: MAX_BUFFERED } });
    const writer = await other.intake();
    const threadId = await openThreadOn(other, writer);
    const url = `${other.server.url}/api/v1/threads/${threadId}/events/stream`;
    const { reader, onServer } = await stalledReader(other, url);
    let rows = 2;
    const reset = once(onServer, 'close');
    while (!onServer.destroyed && onServer.writableLength < MAX_BUFFERED) {
      await appendBig(writer, threadId, 16);
      rows += 16;
    }
    await reset;
    await appendBig(writer, threadId, 16); // stored while the reader is away
    rows += 16;

    reader.read();
    const before = await reader.gone();
    expect(before.length).to.be.below(rows);
    expect(before.map((e) => e.data.seq)).to.deep.equal(range(1, before.length));
    // Resume as an EventSource does: from the last id seen, again after any further reset (a loaded machine can
    // stall even a reading client past this server's 50 ms), until every row has arrived.
    const seen = [...before];
    while (seen.length < rows) {
      const resumeHeaders: Record<string, string> = { authorization: `Bearer ${other.server.token}` };
      if (seen.length > 0) resumeHeaders['last-event-id'] = seen[seen.length - 1]!.id;
      const resumed = await openStalledSse(url, resumeHeaders);
      resumed.read();
      seen.push(...(await Promise.race([resumed.events(rows - seen.length), resumed.gone()])));
      resumed.close();
    }
    expect(seen.map((e) => e.data.seq)).to.deep.equal(range(1, rows));
    writer.close();
    await other.close();
  });

  it('SSE: shutting the server down ends open streams instead of hanging on them', async () => {
    const other = await startTestServer();
    const folder = await tempDir('ats-events-close-');
    const threadId = (await projectWithThread(other, folder)).thread.id;
    const response = await fetch(`${other.server.url}/api/v1/threads/${threadId}/events/stream`, {
      headers: { authorization: `Bearer ${other.server.token}` },
    });
    const ended = (async () => {
      for await (const _chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        // drain until the server ends the stream
      }
      return 'ended';
    })();
    await other.close();
    expect(await ended).to.equal('ended');
  });
});
