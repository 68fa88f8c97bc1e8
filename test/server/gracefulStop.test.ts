import { expect } from 'chai';
import WebSocket from 'ws';
import { HOST_DAEMON_PROTOCOL_VERSION } from '../../src/protocol/protocolVersion';
import { startTestServer } from '../helpers/server/harness';

/** Resolves with the close code and reason the client saw. */
function closeOf(socket: WebSocket): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
}

async function open(url: string, token: string): Promise<WebSocket> {
  const socket = new WebSocket(url, { headers: { authorization: `Bearer ${token}` } });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  return socket;
}

describe('server: a graceful stop says "going away" (1001) to every WebSocket peer', () => {
  it('closes intake sockets and daemon links with 1001 and a reason, not a bare drop (1006)', async () => {
    const t = await startTestServer();
    const base = t.server.url.replace('http', 'ws');
    const intake = await open(`${base}/api/v1/intake`, t.server.token);
    const link = await open(`${base}/api/v1/daemon`, t.server.token);
    const helloAnswer = new Promise((resolve) => link.once('message', resolve));
    link.send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'link.hello',
        params: { protocolVersion: HOST_DAEMON_PROTOCOL_VERSION, hostId: 'host_graceful', name: 'g', platform: 'linux', providers: [] },
      }),
    );
    await helloAnswer;
    const intakeClosed = closeOf(intake);
    const linkClosed = closeOf(link);
    await t.close();
    expect(await intakeClosed).to.deep.equal({ code: 1001, reason: 'the server is shutting down' });
    expect(await linkClosed).to.deep.equal({ code: 1001, reason: 'the server is shutting down' });
  });
});
