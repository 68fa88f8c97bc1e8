import { expect } from 'chai';
import WebSocket from 'ws';
import { agentStart, assistantStart, textDelta } from '../helpers/server/frames';
import { projectWithThread, rpc, startTestServer, type TestServer } from '../helpers/server/harness';
import { suiteTempDirs } from '../helpers/temp/suiteDirs';

interface RawEvent {
  id: number;
  /** The `data:` line exactly as it came over the wire. */
  data: string;
}

/** An SSE reader that keeps each event's text as received, to compare bytes between readers. */
async function openRawSse(url: string, token: string) {
  const controller = new AbortController();
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` }, signal: controller.signal });
  const events: RawEvent[] = [];
  let waiting: { count: number; resolve(): void } | undefined;
  (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const lines = buffer.slice(0, end).split('\n');
          buffer = buffer.slice(end + 2);
          const id = lines.find((line) => line.startsWith('id: '));
          const data = lines.find((line) => line.startsWith('data: '));
          if (id && data) events.push({ id: Number(id.slice(4)), data: data.slice(6) });
        }
        if (waiting && events.length >= waiting.count) waiting.resolve();
      }
    } catch {
      // aborted by close()
    }
  })();
  return {
    events: (count: number) =>
      new Promise<RawEvent[]>((resolve) => {
        if (events.length >= count) return resolve(events);
        waiting = { count, resolve: () => resolve(events) };
      }),
    close: () => controller.abort(),
  };
}

describe('server: SSE fan-out (a stored batch published once to every reader)', () => {
  let t: TestServer;
  let socket: WebSocket;
  const tempDir = suiteTempDirs();

  before(async () => {
    t = await startTestServer({ config: { agentProviders: 'none' } });
    socket = await t.intake();
  });
  after(async () => {
    socket.close();
    await t.close();
  });

  it('gives every reader every row exactly once, in seq order, with identical bytes, equal to the stored rows', async () => {
    const threadId = (await projectWithThread(t, await tempDir('ats-fanout-'))).thread.id as string;
    const url = `${t.server.url}/api/v1/threads/${threadId}/events/stream`;
    const readers = await Promise.all(Array.from({ length: 8 }, () => openRawSse(url, t.server.token)));
    while (t.server.hub.subscriberCount() < readers.length) await new Promise((resolve) => setTimeout(resolve, 5));

    // Bursts of frames, so rows are published in batches of many rows as well as one by one.
    await rpc(socket, agentStart(threadId, 1));
    await rpc(socket, assistantStart(threadId, 2));
    let id = 10;
    for (let burst = 0; burst < 6; burst++) {
      for (let i = 0; i < 49; i++) socket.send(JSON.stringify(textDelta(threadId, `b${burst}-${i} "quoted" \n é`)));
      await rpc(socket, textDelta(threadId, `b${burst}-end`, id++));
    }
    const total = await t.server.store.lastSeq(threadId);
    const received = await Promise.all(readers.map((reader) => reader.events(total)));
    readers.forEach((reader) => reader.close());

    const stored = await t.json(`/threads/${threadId}/events?limit=1000`);
    expect(stored).to.have.length(total);
    for (const events of received) {
      expect(events.map((event) => event.id)).to.deep.equal(Array.from({ length: total }, (_, i) => i + 1));
      expect(events.map((event) => event.data)).to.deep.equal(received[0]!.map((event) => event.data));
      expect(events.map((event) => JSON.parse(event.data))).to.deep.equal(stored);
    }
  });

  it('a reader that joins later gets the backlog from the store, then the live rows, each once', async () => {
    const threadId = (await projectWithThread(t, await tempDir('ats-fanout-late-'))).thread.id as string;
    const url = `${t.server.url}/api/v1/threads/${threadId}/events/stream`;
    const early = await openRawSse(url, t.server.token);
    await rpc(socket, agentStart(threadId, 1));
    for (let i = 0; i < 30; i++) socket.send(JSON.stringify(textDelta(threadId, `early ${i}`)));
    await rpc(socket, textDelta(threadId, 'early end', 2));
    const late = await openRawSse(url, t.server.token);
    for (let i = 0; i < 30; i++) socket.send(JSON.stringify(textDelta(threadId, `late ${i}`)));
    await rpc(socket, textDelta(threadId, 'late end', 3));
    const total = await t.server.store.lastSeq(threadId);
    const [fromEarly, fromLate] = await Promise.all([early.events(total), late.events(total)]);
    early.close();
    late.close();
    expect(fromLate.map((event) => event.id)).to.deep.equal(Array.from({ length: total }, (_, i) => i + 1));
    expect(fromLate.map((event) => JSON.parse(event.data))).to.deep.equal(fromEarly.map((event) => JSON.parse(event.data)));
    // The backlog is sent as the store's own row text, the live rows as serialised: the same bytes.
    expect(fromLate.map((event) => event.data)).to.deep.equal(fromEarly.map((event) => event.data));
  });
});
