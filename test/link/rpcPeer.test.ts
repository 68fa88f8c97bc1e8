import { expect } from 'chai';
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import { createRpcPeer, LinkClosedError, type RpcPeer } from '../../src/link/rpcPeer';

/** Two peers on a real loopback socket; `framesSeen` counts WebSocket frames arriving at the server side. */
async function peerPair(maxFrameBytes = Infinity) {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((resolve) => wss.once('listening', resolve));
  const serverSocket = new Promise<WebSocket>((resolve) => wss.once('connection', resolve));
  const clientSocket = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`);
  await new Promise((resolve) => clientSocket.once('open', resolve));
  const serverWs = await serverSocket;
  let framesSeen = 0;
  serverWs.on('message', () => framesSeen++);
  const echo = (side: string) => async (request: { id: string | number; method: string; params?: unknown }) => ({ jsonrpc: '2.0' as const, id: request.id, result: { side, method: request.method, params: request.params } });
  const server: RpcPeer = createRpcPeer(serverWs, echo('server'), () => {});
  const client: RpcPeer = createRpcPeer(clientSocket, echo('client'), () => {}, () => maxFrameBytes);
  return {
    server,
    client,
    framesSeen: () => framesSeen,
    async close() {
      clientSocket.terminate();
      await new Promise((resolve) => wss.close(resolve));
    },
  };
}

describe('link: JSON-RPC in both directions over one WebSocket', () => {
  it('answers requests from either side with the other side', async () => {
    const pair = await peerPair();
    expect(await pair.client.call('store.last_seq', { threadId: 'thr_a' })).to.deep.include({ result: { side: 'server', method: 'store.last_seq', params: { threadId: 'thr_a' } } });
    expect(await pair.server.call('host.list_paths', { path: '/' })).to.deep.include({ result: { side: 'client', method: 'host.list_paths', params: { path: '/' } } });
    await pair.close();
  });

  it('sends the messages of one event-loop turn as one frame, each still answered on its own', async () => {
    const pair = await peerPair();
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => pair.client.call('m', i)));
    expect(answers.map((answer) => (answer as { result: { params: number } }).result.params)).to.deep.equal(Array.from({ length: 50 }, (_, i) => i));
    expect(pair.framesSeen()).to.equal(1);
    await pair.close();
  });

  it('sends messages one frame each when together they would pass the peer frame limit', async () => {
    const pair = await peerPair(1000);
    await Promise.all(Array.from({ length: 3 }, () => pair.client.call('m', 'x'.repeat(600))));
    expect(pair.framesSeen()).to.equal(3);
    await pair.close();
  });

  it('fails requests still waiting when the socket goes away with LinkClosedError', async () => {
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise((resolve) => wss.once('listening', resolve));
    wss.on('connection', (socket) => socket.on('message', () => socket.terminate()));
    const socket = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`);
    await new Promise((resolve) => socket.once('open', resolve));
    const peer = createRpcPeer(socket, async () => ({ jsonrpc: '2.0', id: null, result: null }), () => {});
    let error: unknown;
    await peer.call('never.answered', {}).catch((e: unknown) => (error = e));
    expect(error).to.be.instanceOf(LinkClosedError);
    await new Promise((resolve) => wss.close(resolve));
  });
});
