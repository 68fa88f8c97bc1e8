import { expect } from 'chai';
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer, type RawData } from 'ws';
import { JsonRpcRequestSchema } from '../../src/protocol/jsonRpc';
import { EAGER_FLUSH_CHARS } from '../../src/link/frameWriter';
import { JsonText } from '../../src/link/jsonText';
import { createRpcPeer, LinkClosedError, LinkProtocolError, type RpcPeer } from '../../src/link/rpcPeer';

/** Two peers on a real loopback socket; `framesSeen` and `frameSizes` are of the frames reaching the server side. */
async function peerPair(maxFrameBytes = Infinity) {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((resolve) => wss.once('listening', resolve));
  const serverSocket = new Promise<WebSocket>((resolve) => wss.once('connection', resolve));
  const clientSocket = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`);
  await new Promise((resolve) => clientSocket.once('open', resolve));
  const serverWs = await serverSocket;
  let framesSeen = 0;
  const frameSizes: number[] = [];
  serverWs.on('message', (data: Buffer) => {
    framesSeen++;
    frameSizes.push(data.length);
  });
  const echo = (side: string) => async (message: unknown) => {
    const request = JsonRpcRequestSchema.parse(message);
    return { jsonrpc: '2.0' as const, id: request.id, result: { side, method: request.method, params: request.params } };
  };
  const server: RpcPeer = createRpcPeer(serverWs, echo('server'), () => {});
  const client: RpcPeer = createRpcPeer(
    clientSocket,
    echo('client'),
    () => {},
    () => maxFrameBytes,
  );
  return {
    server,
    client,
    framesSeen: () => framesSeen,
    frameSizes: () => frameSizes,
    async close() {
      clientSocket.terminate();
      await new Promise((resolve) => wss.close(resolve));
    },
  };
}

/** A peer whose other end is a bare WebSocket server answering each message with `onMessage`. */
async function peerOfRawServer(onMessage: (socket: WebSocket, data: RawData) => void) {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((resolve) => wss.once('listening', resolve));
  wss.on('connection', (socket) => socket.on('message', (data) => onMessage(socket, data)));
  const socket = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`);
  await new Promise((resolve) => socket.once('open', resolve));
  const peer = createRpcPeer(
    socket,
    async () => ({ jsonrpc: '2.0', id: null, result: null }),
    () => {},
  );
  return {
    peer,
    async close() {
      socket.terminate();
      await new Promise((resolve) => wss.close(resolve));
    },
  };
}

describe('link: JSON-RPC in both directions over one WebSocket', () => {
  it('answers requests from either side with the other side', async () => {
    const pair = await peerPair();
    expect(await pair.client.call('store.last_seq', { threadId: 'thr_a' })).to.deep.include({
      result: { side: 'server', method: 'store.last_seq', params: { threadId: 'thr_a' } },
    });
    expect(await pair.server.call('host.list_paths', { path: '/' })).to.deep.include({
      result: { side: 'client', method: 'host.list_paths', params: { path: '/' } },
    });
    await pair.close();
  });

  it('sends the messages of one event-loop turn as one frame, each still answered on its own', async () => {
    const pair = await peerPair();
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => pair.client.call('m', i)));
    expect(answers.map((answer) => (answer as { result: { params: number } }).result.params)).to.deep.equal(
      Array.from({ length: 50 }, (_, i) => i),
    );
    expect(pair.framesSeen()).to.equal(1);
    await pair.close();
  });

  it('sends messages one frame each when together they would pass the peer frame limit', async () => {
    const pair = await peerPair(1000);
    await Promise.all(Array.from({ length: 3 }, () => pair.client.call('m', 'x'.repeat(600))));
    expect(pair.framesSeen()).to.equal(3);
    await pair.close();
  });

  it('fills frames up to the peer frame limit rather than sending one message per frame', async () => {
    const pair = await peerPair(1000);
    // Each request is ~370 bytes: two fit in a frame of 1000 with the array around them, three do not.
    await Promise.all(Array.from({ length: 6 }, () => pair.client.call('m', 'x'.repeat(320))));
    expect(pair.framesSeen()).to.equal(3);
    expect(Math.max(...pair.frameSizes())).to.be.at.most(1000);
    await pair.close();
  });

  it('sends what one turn writes in several frames once it passes EAGER_FLUSH_CHARS, in order, each answered', async () => {
    const pair = await peerPair();
    const count = Math.ceil((3 * EAGER_FLUSH_CHARS) / 1000);
    const answers = await Promise.all(Array.from({ length: count }, (_, i) => pair.client.call('m', `${i}:${'x'.repeat(1000)}`)));
    expect(answers.map((answer) => Number((answer as { result: { params: string } }).result.params.split(':')[0]))).to.deep.equal(
      Array.from({ length: count }, (_, i) => i),
    );
    expect(pair.framesSeen()).to.be.within(3, 4);
    await pair.close();
  });

  it('sends JsonText params as their text: the other side sees the value', async () => {
    const pair = await peerPair();
    const value = { events: [{ type: 'a', data: { text: 'ü ✓' } }], n: 1 };
    expect(await pair.client.call('m', new JsonText(JSON.stringify(value)))).to.deep.include({
      result: { side: 'server', method: 'm', params: value },
    });
    await pair.close();
  });

  it('rejects a call with LinkProtocolError when the answer is not a JSON-RPC response, instead of waiting forever', async () => {
    const { peer, close } = await peerOfRawServer((socket, data) =>
      socket.send(JSON.stringify({ id: JSON.parse(data.toString()).id, outcome: 'stored' })),
    );
    expect(await peer.call('store.append', {}).catch((error: unknown) => error)).to.be.instanceOf(LinkProtocolError);
    await close();
  });

  it('fails requests still waiting when the socket goes away with LinkClosedError', async () => {
    const { peer, close } = await peerOfRawServer((socket) => socket.terminate());
    expect(await peer.call('never.answered', {}).catch((error: unknown) => error)).to.be.instanceOf(LinkClosedError);
    await close();
  });

  it('carries the parts of an answer: each reaches the request that asked for it, in order, before the answer', async () => {
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise((resolve) => wss.once('listening', resolve));
    // The serving side answers in three parts, then with what is left, as a diff does.
    wss.on('connection', (socket) =>
      createRpcPeer(
        socket,
        async (message, context) => {
          const request = JsonRpcRequestSchema.parse(message);
          const token = (request.params as { partialResultToken: number }).partialResultToken;
          for (const part of ['a', 'b', 'c']) context?.progress?.(token, { part });
          return { jsonrpc: '2.0', id: request.id, result: { rest: 'd' } };
        },
        () => {},
      ),
    );
    const socket = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`);
    await new Promise((resolve) => socket.once('open', resolve));
    const logs: string[] = [];
    const peer = createRpcPeer(
      socket,
      async () => ({ jsonrpc: '2.0', id: null, result: null }),
      (line) => logs.push(line),
    );
    const seen: unknown[] = [];
    const answer = await peer.send({ jsonrpc: '2.0', id: 7, method: 'diff', params: { partialResultToken: 7 } }, (part) => seen.push(part));
    expect(seen).to.deep.equal([{ part: 'a' }, { part: 'b' }, { part: 'c' }]);
    expect(answer).to.deep.include({ id: 7, result: { rest: 'd' } });

    // Asked without a place for parts: they are dropped (and said), the answer still comes.
    const alone = await peer.send({ jsonrpc: '2.0', id: 8, method: 'diff', params: { partialResultToken: 8 } });
    expect(alone).to.deep.include({ id: 8, result: { rest: 'd' } });
    expect(logs.filter((line) => line.includes('dropped a part'))).to.have.length(3);
    socket.terminate();
    await new Promise((resolve) => wss.close(resolve));
  });
});
