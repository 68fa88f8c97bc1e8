import { expect } from 'chai';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { HOST_DAEMON_PROTOCOL_VERSION } from '../../../src/protocol/protocolVersion';
import { createDaemonLinkClient, type DaemonLinkClient } from '../../../src/daemon/remote/daemonLinkClient';

/**
 * A stand-in server for the daemon's end of the link: answers `link.hello` with the given heartbeat, and
 * answers pings only when `autoPong` (a server whose machine froze answers nothing).
 */
async function helloServer(options: { heartbeatMs: number; autoPong: boolean }) {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', autoPong: options.autoPong });
  await new Promise((resolve) => wss.once('listening', resolve));
  const links: Array<{ socket: WebSocket; openedAt: number; pings: number; closedAt?: number }> = [];
  wss.on('connection', (socket) => {
    const link = { socket, openedAt: performance.now(), pings: 0, closedAt: undefined as number | undefined };
    links.push(link);
    socket.on('ping', () => link.pings++);
    socket.on('close', () => (link.closedAt = performance.now()));
    socket.on('message', (data) => {
      const parsed = JSON.parse(data.toString());
      for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
        if (message.method !== 'link.hello') continue;
        const result = { protocolVersion: HOST_DAEMON_PROTOCOL_VERSION, heartbeatMs: options.heartbeatMs, maxPayloadBytes: 1 << 20 };
        socket.send(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
      }
    });
  });
  return {
    url: `http://127.0.0.1:${(wss.address() as AddressInfo).port}`,
    links,
    close: () => new Promise((resolve) => wss.close(resolve)),
  };
}

function daemonLink(serverUrl: string, heartbeatMs?: number): DaemonLinkClient {
  const link = createDaemonLinkClient({
    serverUrl,
    token: 'token-0123456789abcdef',
    heartbeatMs,
    reconnect: { initialMs: 10_000, maxMs: 10_000 }, // no redial within a test
    maxPayloadBytes: 1 << 20,
    log: () => {},
  });
  const hello = { protocolVersion: HOST_DAEMON_PROTOCOL_VERSION, hostId: 'host_beat', name: 'beat', platform: 'linux', providers: [] };
  link.start({ hello, dispatch: async () => ({ jsonrpc: '2.0', id: null, result: null }) });
  return link;
}

const until = async (done: () => boolean) => {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 5));
};

describe('link heartbeat (daemon side)', () => {
  it('pings at the interval the server names in its hello answer when --heartbeat-ms is not set', async () => {
    const server = await helloServer({ heartbeatMs: 50, autoPong: true });
    const link = daemonLink(server.url);
    await until(() => link.isConnected());
    await new Promise((resolve) => setTimeout(resolve, 500));
    // The default (30 s) would not have pinged at all.
    expect(server.links[0]!.pings).to.be.at.least(4);
    await link.close();
    await server.close();
  });

  it('keeps its own --heartbeat-ms when it is set', async () => {
    const server = await helloServer({ heartbeatMs: 50, autoPong: true });
    const link = daemonLink(server.url, 60_000);
    await until(() => link.isConnected());
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(server.links[0]!.pings).to.equal(0);
    await link.close();
    await server.close();
  });

  it('drops a link whose server stops answering pings within two intervals, and not before one', async () => {
    const intervalMs = 200;
    const server = await helloServer({ heartbeatMs: 60_000, autoPong: false });
    const link = daemonLink(server.url, intervalMs);
    await until(() => server.links[0]?.closedAt !== undefined);
    const { openedAt, closedAt, pings } = server.links[0]!;
    expect(pings).to.equal(1);
    // One interval to send the ping, the next tick finds no pong. The slack covers a busy test machine.
    expect(closedAt! - openedAt).to.be.within(intervalMs, 2 * intervalMs + 150);
    await link.close();
    await server.close();
  });
});
