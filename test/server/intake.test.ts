import { expect } from 'chai';
import fc from 'fast-check';
import net from 'node:net';
import WebSocket from 'ws';
import { agentEnd, agentStart, assistantStart, sdk, textDelta } from '../helpers/server/frames';
import { projectWithThread, rpc, startTestServer, type TestServer } from '../helpers/server/harness';
import { suiteTempDirs } from '../helpers/temp/suiteDirs';

describe('server: agent intake over WebSocket', () => {
  let t: TestServer;
  let threadId: string;
  let socket: WebSocket;

  before(async () => {
    t = await startTestServer({ config: { intakeMaxPayloadBytes: 64 * 1024, wsHeartbeatMs: 200, intakeMaxInFlight: 8 } });
    const folder = await tempDir('ats-intake-');
    threadId = (await projectWithThread(t, folder)).thread.id;
  });
  beforeEach(async () => (socket = await t.intake()));
  afterEach(() => socket.close());
  after(() => t.close());

  const tempDir = suiteTempDirs();

  it('answers a request after its rows are stored, listing their seqs (E1, E2 through the daemon pipeline)', async () => {
    const started = await rpc(socket, agentStart(threadId, 1));
    expect(started).to.deep.equal({ jsonrpc: '2.0', id: 1, result: { seqs: [1] } });
    const ended = await rpc(socket, agentEnd(threadId, 'done', 2));
    expect(ended.result.seqs.length).to.be.greaterThan(1);
    const events = await t.json(`/threads/${threadId}/events`);
    expect(events.map((e: { seq: number }) => e.seq)).to.deep.equal([1, ...ended.result.seqs]);
    expect(events.map((e: { type: string }) => e.type)).to.include.members(['turn/started', 'turn/completed']);
    expect((await t.json(`/threads/${threadId}`)).status).to.equal('idle');
  });

  it('takes notifications fire-and-forget, in the order they were sent', async () => {
    const before = (await t.json(`/threads/${threadId}/events?limit=1000`)).length;
    socket.send(JSON.stringify(agentStart(threadId)));
    const answer = await rpc(socket, sdk(threadId, { type: 'turn_start' }, 7));
    expect(answer.result).to.deep.equal({ seqs: [] });
    const events = await t.json(`/threads/${threadId}/events?afterSeq=${before}`);
    expect(events[0].type).to.equal('turn/started');
    expect((await t.json(`/threads/${threadId}`)).status).to.equal('active');
  });

  it('keeps the send order of many frames sent back to back: rows in that order, seqs gapless', async () => {
    const folder = await tempDir('ats-intake-order-');
    const ordered = (await projectWithThread(t, folder)).thread.id;
    socket.send(JSON.stringify(agentStart(ordered)));
    socket.send(JSON.stringify(assistantStart(ordered)));
    for (let i = 0; i < 300; i++) socket.send(JSON.stringify(textDelta(ordered, `w${i} `)));
    const last = await rpc(socket, textDelta(ordered, 'end', 11));
    expect(last.result.seqs).to.deep.equal([303]);
    const rows = await t.json(`/threads/${ordered}/events?limit=1000`);
    expect(rows.map((row: { seq: number }) => row.seq)).to.deep.equal(Array.from({ length: 303 }, (_, i) => i + 1));
    const deltas = rows
      .filter((row: { type: string }) => row.type === 'item/agentMessage/delta')
      .map((row: { data: { delta: string } }) => row.data.delta);
    expect(deltas).to.deep.equal([...Array.from({ length: 300 }, (_, i) => `w${i} `), 'end']);
  });

  it('answers a frame that is not JSON with -32700 and id null, and keeps the socket open', async () => {
    const answer = await rpc(socket, '{"jsonrpc": "2.0", nope');
    expect(answer).to.deep.include({ id: null });
    expect(answer.error.code).to.equal(-32700);
    expect((await rpc(socket, agentStart(threadId, 3))).result).to.have.property('seqs');
  });

  it('answers an invalid request with -32600 and keeps the socket open', async () => {
    const answer = await rpc(socket, { jsonrpc: '1.0', method: 'sdk/message', id: 4 });
    expect(answer.error.code).to.equal(-32600);
    expect(answer.id).to.equal(4);
    expect(socket.readyState).to.equal(WebSocket.OPEN);
  });

  it('answers a frame that is a JSON string with -32600 and id null, and keeps the socket open', async () => {
    for (const text of ['"x"', JSON.stringify(JSON.stringify(agentStart(threadId, 31)))]) {
      const answer = await rpc(socket, text);
      expect(answer, text).to.deep.include({ id: null });
      expect(answer.error.code, text).to.equal(-32600);
    }
    expect((await rpc(socket, agentStart(threadId, 32))).result).to.have.property('seqs');
  });

  it('answers every JSON scalar and array with -32600 and id null, and keeps the socket open (JSON-RPC 2.0)', async () => {
    const notAnEnvelope = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 5 }),
    );
    await fc.assert(
      fc.asyncProperty(notAnEnvelope, async (value) => {
        const answer = await rpc(socket, JSON.stringify(value));
        expect(answer).to.deep.include({ jsonrpc: '2.0', id: null });
        expect(answer.error.code).to.equal(-32600);
        expect(socket.readyState).to.equal(WebSocket.OPEN);
      }),
      { numRuns: 200 },
    );
    expect((await rpc(socket, agentStart(threadId, 33))).result).to.have.property('seqs');
  });

  it('answers an unknown method with -32601 and keeps the socket open', async () => {
    const answer = await rpc(socket, { jsonrpc: '2.0', method: 'sdk/nope', params: { threadId }, id: 5 });
    expect(answer.error.code).to.equal(-32601);
    expect((await rpc(socket, sdk(threadId, { type: 'turn_start' }, 51))).result).to.deep.equal({ seqs: [] });
  });

  it('answers invalid params with -32602 and the issue path from zod, from the frame root, and keeps the socket open', async () => {
    const answer = await rpc(socket, { jsonrpc: '2.0', method: 'sdk/message', params: { threadId, message: { notype: 1 } }, id: 6 });
    expect(answer.error.code).to.equal(-32602);
    expect(answer.error.data.map((issue: { path: unknown }) => issue.path)).to.deep.include(['params', 'message', 'type']);
    const badThreadId = await rpc(socket, {
      jsonrpc: '2.0',
      method: 'sdk/message',
      params: { threadId: 'nope', message: { type: 'x' } },
      id: 61,
    });
    expect(badThreadId.error.data.map((issue: { path: unknown }) => issue.path)).to.deep.equal([['params', 'threadId']]);
    expect((await rpc(socket, sdk(threadId, { type: 'turn_start' }, 62))).result).to.deep.equal({ seqs: [] });
  });

  it('answers a frame for an unknown thread with -32602 naming params.threadId', async () => {
    const answer = await rpc(socket, agentStart('thr_doesnotexist', 8));
    expect(answer.error.code).to.equal(-32602);
    expect(answer.error.message).to.contain('unknown thread');
    expect(answer.error.data.map((issue: { path: unknown }) => issue.path)).to.deep.equal([['params', 'threadId']]);
  });

  it("never answers a notification, not even a refused one (JSON-RPC 2.0): the next answer is the next request's", async () => {
    const received: Array<{ id: unknown }> = [];
    socket.on('message', (data) => received.push(JSON.parse(data.toString())));
    socket.send(JSON.stringify(agentStart('thr_doesnotexist'))); // unknown thread
    socket.send(JSON.stringify({ jsonrpc: '2.0', method: 'sdk/nope', params: { threadId } })); // unknown method
    socket.send(JSON.stringify({ jsonrpc: '2.0', method: 'sdk/message', params: { threadId, message: {} } })); // invalid params
    expect((await rpc(socket, sdk(threadId, { type: 'turn_start' }, 71))).result).to.deep.equal({ seqs: [] });
    expect(received.map((message) => message.id)).to.deep.equal([71]);
  });

  it('closes only the socket that sent an oversize frame (1009); other sockets keep working', async () => {
    const other = await t.intake();
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    socket.send('x'.repeat(65 * 1024));
    expect(await closed).to.equal(1009);
    expect((await rpc(other, sdk(threadId, { type: 'turn_start' }, 9))).result).to.deep.equal({ seqs: [] });
    other.close();
  });

  it('answers a request -32603 when the server fails to look the thread up, and a notification still nothing', async () => {
    const { threads } = t.server.registry;
    const get = threads.get;
    threads.get = () => Promise.reject(new Error('registry unavailable'));
    const received: Array<{ id: unknown; error?: { code: number } }> = [];
    socket.on('message', (data) => received.push(JSON.parse(data.toString())));
    try {
      socket.send(JSON.stringify(agentStart(threadId))); // a notification
      const answer = await rpc(socket, sdk(threadId, { type: 'turn_start' }, 81));
      expect(answer.error.code).to.equal(-32603);
      expect(JSON.stringify(answer)).to.not.contain('registry unavailable');
    } finally {
      threads.get = get;
    }
    expect(received.map((message) => message.id)).to.deep.equal([81]);
  });

  it('refuses a connection with a wrong bearer token or none (401)', async () => {
    for (const headers of [{ authorization: 'Bearer wrong-token-123456' }, {}]) {
      const refused = new WebSocket(`${t.server.url.replace('http', 'ws')}/api/v1/intake`, { headers });
      const status = await new Promise<number>((resolve) =>
        refused.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)),
      );
      expect(status, JSON.stringify(headers)).to.equal(401);
    }
  });

  it('drops a peer that stops answering pings', async () => {
    const port = t.server.port;
    // A raw socket completes the handshake and then never answers a ping, like a peer whose machine vanished.
    const raw = net.connect(port, '127.0.0.1');
    raw.write(
      `GET /api/v1/intake HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        `Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nAuthorization: Bearer ${t.server.token}\r\n\r\n`,
    );
    raw.on('data', () => {});
    await new Promise<void>((resolve) => raw.once('close', () => resolve()));
  });
});
