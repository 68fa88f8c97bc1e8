import { Subject } from 'rxjs';
import type { HostHello } from '../../protocol/hostContract';
import { createHostRequester, type HostLink } from '../hosts/hostLink';
import type { RpcPeer } from '../../link/rpcPeer';
import type { JsonRpcRequest } from '../../protocol/jsonRpc';

/** Close code of a link the server let go (a newer link of the same host, or shutdown); the daemon reconnects. */
const SERVER_RELEASED = 1001;

/**
 * The server's HostLink to a remote daemon: host commands go out as JSON-RPC requests on the daemon's socket,
 * with the same validation and timeouts as the embedded link (createHostRequester). A request still waiting
 * when the socket drops fails as `offline` (502), one that outlives its timeout as `timeout` (504). `sending`
 * sees each command as it goes out (the link's thread scope learns of the threads the server opens on it).
 */
export function wsHostLink(
  peer: RpcPeer,
  hello: HostHello,
  timeoutMs: number,
  sending: (request: JsonRpcRequest) => void = () => {},
): HostLink {
  const closed$ = new Subject<void>();
  peer.socket.once('close', () => {
    closed$.next();
    closed$.complete();
  });
  return {
    hello,
    request: createHostRequester((request, onProgress) => {
      sending(request);
      return peer.send(request, onProgress);
    }, timeoutMs),
    closed$: closed$.asObservable(),
    async close() {
      if (peer.socket.readyState === peer.socket.CLOSED) return;
      const gone = new Promise<void>((resolve) => peer.socket.once('close', () => resolve()));
      peer.socket.close(SERVER_RELEASED, 'the server released this link');
      // A peer that does not finish the closing handshake must not hold up a shutdown.
      const timer = setTimeout(() => peer.socket.terminate(), 1000);
      await gone;
      clearTimeout(timer);
    },
  };
}
