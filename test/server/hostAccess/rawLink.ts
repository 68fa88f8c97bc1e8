import WebSocket from 'ws';
import { HOST_DAEMON_PROTOCOL_VERSION } from '../../../src/protocol/protocolVersion';
import { linkFrames } from '../../helpers/hosts/linkFrames';

export type LinkOutcome =
  | { refusedStatus: number }
  | { attached: true; socket: WebSocket; closed: Promise<{ code: number; reason: string }> }
  | { closed: { code: number; reason: string } };

/**
 * Dials `/api/v1/daemon` with `bearer` and says hello as `hostId`, the way a daemon does, without being one:
 * the upgrade's refusal (its HTTP status), or the hello's answer, or the close code the server answered with.
 */
export function helloAs(serverUrl: string, bearer: string, hostId: string): Promise<LinkOutcome> {
  const socket = new WebSocket(`${serverUrl.replace(/^http/, 'ws')}/api/v1/daemon`, { headers: { authorization: `Bearer ${bearer}` } });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.once('close', (code, reason) => resolve({ code, reason: reason.toString('utf8') })),
  );
  return new Promise((resolve) => {
    socket.once('unexpected-response', (_req, response) => {
      resolve({ refusedStatus: response.statusCode ?? 0 });
      socket.terminate();
    });
    socket.once('error', () => {});
    socket.once('open', () => {
      const hello = { protocolVersion: HOST_DAEMON_PROTOCOL_VERSION, hostId, name: 'raw', platform: 'linux', providers: [] };
      socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'link.hello', params: hello }));
      // A link may batch frames: the hello's answer can share one with the server's first request (a prune).
      socket.on('message', (data) => {
        const frames = linkFrames(data);
        if (frames.some((frame) => frame.id === 1 && frame.result)) resolve({ attached: true, socket, closed });
      });
      void closed.then((close) => resolve({ closed: close }));
    });
  });
}
