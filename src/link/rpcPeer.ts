import type { RawData, WebSocket } from 'ws';
import { JSON_RPC_ERROR, jsonRpcError } from '../protocol/jsonRpc';
import { JsonRpcRequestSchema, JsonRpcResponseSchema, type JsonRpcRequest, type JsonRpcResponse } from '../daemon/jsonRpcMessages';

/** Raised for every request still waiting when the socket goes away; callers retry or report "offline". */
export class LinkClosedError extends Error {}

/**
 * One end of a JSON-RPC 2.0 conversation in both directions over one WebSocket: messages with a `method` are
 * requests for `serve`, messages with `result`/`error` answer our own requests. Each side numbers its own
 * requests; a request and a response never mix up because only requests carry a method. Messages written
 * in the same turn of the event loop travel as one WebSocket frame holding a JSON array (as a JSON-RPC batch
 * does): a busy intake hands the link thousands of small requests a second, and one frame per message cost
 * the remote path a third of its throughput in bench:hosts.
 */
export interface RpcPeer {
  /** Sends a request as is (its id must be unique among ours) and resolves with the raw response. */
  send(request: JsonRpcRequest): Promise<unknown>;
  /** A request with the next free id. */
  call(method: string, params: unknown): Promise<JsonRpcResponse>;
  readonly socket: WebSocket;
}

export type ServeRequest = (request: JsonRpcRequest) => Promise<JsonRpcResponse>;

/** `maxFrameBytes`: what the other side accepts; messages are coalesced only while they fit together. */
export function createRpcPeer(socket: WebSocket, serve: ServeRequest, log: (message: string) => void, maxFrameBytes: () => number = () => Infinity): RpcPeer {
  const pending = new Map<string | number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let nextId = 1;

  let outgoing: { message: unknown; sent?(error?: Error): void }[] = [];
  const flush = () => {
    const batch = outgoing;
    outgoing = [];
    if (socket.readyState !== socket.OPEN) return batch.forEach((item) => item.sent?.(new Error('the link is not open')));
    const sendText = (text: string, items: typeof batch) => socket.send(text, (error) => items.forEach((item) => item.sent?.(error ?? undefined)));
    if (batch.length === 1) return sendText(JSON.stringify(batch[0]!.message), batch);
    const together = JSON.stringify(batch.map((item) => item.message));
    if (Buffer.byteLength(together) <= maxFrameBytes()) return sendText(together, batch);
    batch.forEach((item) => sendText(JSON.stringify(item.message), [item]));
  };
  const write = (message: unknown, sent?: (error?: Error) => void) => {
    if (outgoing.push({ message, sent }) === 1) setImmediate(flush);
  };
  const reply = (response: JsonRpcResponse) => {
    if (socket.readyState === socket.OPEN) write(response);
  };

  socket.on('message', (data: RawData) => {
    let frame: unknown;
    try {
      frame = JSON.parse(textOf(data));
    } catch {
      return reply({ jsonrpc: '2.0', id: null, error: jsonRpcError(JSON_RPC_ERROR.parseError, 'parse error: the frame is not JSON') });
    }
    for (const message of Array.isArray(frame) ? frame : [frame]) receive(message);
  });

  const receive = (message: unknown) => {
    if (typeof message === 'object' && message !== null && 'method' in message) {
      const request = JsonRpcRequestSchema.safeParse(message);
      if (!request.success) return reply({ jsonrpc: '2.0', id: null, error: jsonRpcError(JSON_RPC_ERROR.invalidRequest, 'invalid request', request.error.issues) });
      serve(request.data).then(reply, (error: unknown) => {
        log(`link request ${request.data.method} failed: ${String(error)}`);
        reply({ jsonrpc: '2.0', id: request.data.id, error: jsonRpcError(JSON_RPC_ERROR.internalError, `${request.data.method} failed`) });
      });
      return;
    }
    const response = JsonRpcResponseSchema.safeParse(message);
    const id = response.success ? response.data.id : null;
    const waiter = id === null ? undefined : pending.get(id);
    if (!waiter) return log('link: dropped an answer nobody waits for');
    pending.delete(id!);
    waiter.resolve(message);
  };

  socket.once('close', () => {
    for (const waiter of pending.values()) waiter.reject(new LinkClosedError('the link closed before the answer came'));
    pending.clear();
  });

  const send = (request: JsonRpcRequest): Promise<unknown> =>
    new Promise((resolve, reject) => {
      if (socket.readyState !== socket.OPEN) return reject(new LinkClosedError('the link is not open'));
      pending.set(request.id, { resolve, reject });
      write(request, (error) => {
        if (!error) return;
        pending.delete(request.id);
        reject(new LinkClosedError(`the link could not send: ${error.message}`));
      });
    });

  return {
    socket,
    send,
    call: async (method, params) => (await send({ jsonrpc: '2.0', id: `c${nextId++}`, method, params })) as JsonRpcResponse,
  };
}

export function textOf(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data).toString('utf8');
}
