import { WebSocketServer, type WebSocket } from 'ws';
import { HostRequestError } from '../../protocol/hostErrors';
import type { HostMethod } from '../../protocol/hostContract';
import { JsonRpcRequestSchema, JSON_RPC_ERROR, jsonRpcError, issuesAt, type JsonRpcResponse } from '../../protocol/jsonRpc';
import { createRpcPeer } from '../../link/rpcPeer';
import { hasBearer } from '../http/authMiddleware';
import type { UpgradeRoute } from '../http/upgrades';
import { startWsHeartbeat } from '../http/wsHeartbeat';
import type { HostLink } from '../../link/hostLink';
import { ForwardedRequestSchema, REPLICA_LINK_PATH, REPLICA_METHOD, type ForwardedOutcome } from './replicaProtocol';

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

  const forward = async (params: unknown): Promise<ForwardedOutcome> => {
    const { hostId, method, params: hostParams, timeoutMs } = ForwardedRequestSchema.parse(params);
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
    createRpcPeer(
      socket,
      async (message): Promise<JsonRpcResponse> => {
        const parsed = JsonRpcRequestSchema.safeParse(message);
        if (!parsed.success)
          return {
            jsonrpc: '2.0',
            id: null,
            error: jsonRpcError(JSON_RPC_ERROR.invalidRequest, 'invalid request', issuesAt(parsed.error)),
          };
        const request = parsed.data;
        if (request.method !== REPLICA_METHOD.hostRequest)
          return { jsonrpc: '2.0', id: request.id, error: jsonRpcError(JSON_RPC_ERROR.methodNotFound, `unknown method ${request.method}`) };
        const checked = ForwardedRequestSchema.safeParse(request.params);
        if (!checked.success)
          return {
            jsonrpc: '2.0',
            id: request.id,
            error: jsonRpcError(JSON_RPC_ERROR.invalidParams, 'invalid params', issuesAt(checked.error, 'params')),
          };
        return { jsonrpc: '2.0', id: request.id, result: await forward(checked.data) };
      },
      deps.log,
    );
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
