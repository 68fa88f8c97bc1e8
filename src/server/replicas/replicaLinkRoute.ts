import { WebSocketServer, type WebSocket } from 'ws';
import { HostRequestError } from '../../protocol/hostErrors';
import type { HostMethod } from '../../protocol/hostContract';
import { serveMethods } from '../../protocol/serveMethods';
import { createRpcPeer } from '../../link/rpcPeer';
import { hasBearer } from '../http/authMiddleware';
import type { UpgradeRoute } from '../http/upgrades';
import { startWsHeartbeat } from '../http/wsHeartbeat';
import type { HostLink } from '../hosts/hostLink';
import { ForwardedRequestSchema, REPLICA_LINK_PATH, REPLICA_METHOD, type ForwardedOutcome, type ForwardedRequest } from './replicaProtocol';

export interface ReplicaLinkDeps {
  token: string;
  /** This replica's own link to a host, if the host's daemon is attached here. */
  localLinkOf(hostId: string): HostLink | undefined;
  heartbeatMs: number;
  maxPayloadBytes: number;
  log(message: string): void;
}

/**
 * `ws://…/api/v1/replica`: the other replicas send host commands for hosts attached here. Requests of one
 * socket are handed to the host link in the order they arrive (the link sends before its first await), so
 * intake frames forwarded for one thread reach its pipeline in the sender's order.
 */
export function createReplicaLinkRoute(deps: ReplicaLinkDeps): UpgradeRoute & { close(): Promise<void> } {
  const wss = new WebSocketServer({ noServer: true, maxPayload: deps.maxPayloadBytes });
  const stopHeartbeat = startWsHeartbeat(wss, deps.heartbeatMs);

  const forward = async ({ hostId, method, params: hostParams, timeoutMs }: ForwardedRequest): Promise<ForwardedOutcome> => {
    const link = deps.localLinkOf(hostId);
    if (!link) return { ok: false, failure: { kind: 'offline' }, message: `host ${hostId} is not attached to this replica` };
    try {
      return { ok: true, result: await link.request(method as HostMethod, hostParams as never, { timeoutMs }) };
    } catch (error) {
      if (error instanceof HostRequestError) return { ok: false, failure: error.failure, message: error.message };
      return { ok: false, failure: { kind: 'offline' }, message: String(error) };
    }
  };

  wss.on('connection', (socket: WebSocket) => {
    socket.on('error', (error) => deps.log(`replica link: ${error.message}`));
    const serve = serveMethods({ [REPLICA_METHOD.hostRequest]: { params: ForwardedRequestSchema, handle: forward } }, { log: deps.log });
    createRpcPeer(socket, serve, deps.log);
  });

  let closing: Promise<void> | undefined;
  return {
    path: REPLICA_LINK_PATH,
    authorize: (req) => hasBearer(req.headers, deps.token),
    handle: (req, socket, head) => wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req)),
    close: () =>
      (closing ??= (async () => {
        stopHeartbeat();
        for (const socket of wss.clients) socket.terminate();
        await new Promise<void>((resolve) => wss.close(() => resolve()));
      })()),
  };
}
