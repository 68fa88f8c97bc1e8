import type { RawData, WebSocket } from 'ws';
import {
  failure,
  JSON_RPC_ERROR,
  jsonRpcError,
  JsonRpcResponseSchema,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type ServeRequest,
  requestIdOf,
} from '../protocol/jsonRpc';
import { PROGRESS_METHOD, progressNotification, ProgressNotificationSchema, type ServeContext } from '../protocol/partialResults';
import { createFrameWriter } from './frameWriter';
import { jsonOf } from './jsonText';

/** Raised for every request still waiting when the socket goes away; callers retry or report "offline". */
export class LinkClosedError extends Error {}

/**
 * One end of a JSON-RPC 2.0 conversation in both directions over one WebSocket: messages with a `method` are
 * requests for `serve`, messages with `result`/`error` answer our own requests, matched by id. Each side
 * numbers its own requests; a request and a response never mix up because only requests carry a method.
 * Each message is checked once, by the side that uses it (`serve` for requests, the waiting caller for
 * answers). Messages written in the same turn of the event loop travel together as one WebSocket frame
 * holding a JSON array (see createFrameWriter): a busy intake hands the link thousands of small requests a
 * second, and one frame per message cost the remote path a third of its throughput in bench:hosts.
 */
export interface RpcPeer {
  /**
   * Sends a request as is (its id must be unique among ours) and resolves with the raw response; the parts
   * the peer sends for it before that (`$/progress` with the request's id as token) go to `onProgress`.
   */
  send(request: JsonRpcRequest, onProgress?: (value: unknown) => void): Promise<unknown>;
  /**
   * A request with the next free id; the answer is checked to be a JSON-RPC response (LinkProtocolError if
   * not). `params` may be a JsonText, sent as it is.
   */
  call(method: string, params: unknown): Promise<JsonRpcResponse>;
  readonly socket: WebSocket;
}

/**
 * Answers one message that carries a `method`, as it arrived: the serving side checks it is a valid request
 * (the daemon's dispatcher does anyway), so no message is checked twice on its way in.
 */

/** `maxFrameBytes`: what the other side accepts; messages are coalesced only while they fit together. */
export function createRpcPeer(
  socket: WebSocket,
  serve: ServeRequest,
  log: (message: string) => void,
  maxFrameBytes: () => number = () => Infinity,
): RpcPeer {
  const pending = new Map<
    string | number,
    { resolve(value: unknown): void; reject(error: Error): void; onProgress?: ((value: unknown) => void) | undefined }
  >();
  let nextId = 1;
  const writer = createFrameWriter(socket, maxFrameBytes);
  const reply = (response: JsonRpcResponse) => {
    if (socket.readyState === socket.OPEN) writer.write(JSON.stringify(response));
  };

  socket.on('message', (data: RawData) => {
    let frame: unknown;
    try {
      frame = JSON.parse(rawDataText(data));
    } catch {
      return reply(failure(null, jsonRpcError(JSON_RPC_ERROR.parseError, 'parse error: the frame is not JSON')));
    }
    for (const message of Array.isArray(frame) ? frame : [frame]) receive(message);
  });

  // The parts of our answers to the peer's requests go out as notifications, in order with the answer itself.
  const context: ServeContext = {
    progress: (token, value) => {
      if (socket.readyState === socket.OPEN) writer.write(JSON.stringify(progressNotification(token, value)));
    },
  };
  const receive = (message: unknown) => {
    if (isProgress(message)) return takeProgress(message);
    if (typeof message === 'object' && message !== null && 'method' in message) {
      serve(message, context).then(reply, (error: unknown) => {
        const method = (message as { method?: unknown }).method;
        log(`link request ${String(method)} failed: ${String(error)}`);
        reply(failure(requestIdOf(message) ?? null, jsonRpcError(JSON_RPC_ERROR.internalError, `${String(method)} failed`)));
      });
      return;
    }
    // Routed by its id only: whoever waits checks the answer (createHostRequester, `call`), once.
    const id = requestIdOf(message);
    const waiter = id === undefined ? undefined : pending.get(id);
    if (!waiter) return log('link: dropped an answer nobody waits for');
    pending.delete(id!);
    waiter.resolve(message);
  };

  /** A part goes to the request that asked for it by its id; any other is the peer's mistake, dropped. */
  const takeProgress = (message: unknown) => {
    const notification = ProgressNotificationSchema.safeParse(message);
    const waiter = notification.success ? pending.get(notification.data.params.token) : undefined;
    if (!notification.success || !waiter?.onProgress) return log('link: dropped a part nobody asked for');
    waiter.onProgress(notification.data.params.value);
  };

  socket.once('close', () => {
    for (const waiter of pending.values()) waiter.reject(new LinkClosedError('the link closed before the answer came'));
    pending.clear();
  });

  const sendText = (id: string | number, text: string, onProgress?: (value: unknown) => void): Promise<unknown> =>
    new Promise((resolve, reject) => {
      if (socket.readyState !== socket.OPEN) return reject(new LinkClosedError('the link is not open'));
      pending.set(id, { resolve, reject, onProgress });
      writer.write(text, (error) => {
        if (!error) return;
        pending.delete(id);
        reject(new LinkClosedError(`the link could not send: ${error.message}`));
      });
    });

  return {
    socket,
    send: (request, onProgress) => sendText(request.id, JSON.stringify(request), onProgress),
    async call(method, params) {
      const id = `c${nextId++}`;
      const head = `{"jsonrpc":"2.0","id":"${id}","method":${JSON.stringify(method)}`;
      const answer = JsonRpcResponseSchema.safeParse(
        await sendText(id, params === undefined ? `${head}}` : `${head},"params":${jsonOf(params)}}`),
      );
      if (!answer.success) throw new LinkProtocolError(`malformed answer to ${method}: ${answer.error.message}`);
      return answer.data;
    },
  };
}

/** The peer answered with something that is not a JSON-RPC response. */
export class LinkProtocolError extends Error {}

/** A WebSocket message as text, whether ws delivered one buffer, fragments or an ArrayBuffer. */
function rawDataText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data).toString('utf8');
}

/** A `$/progress` notification: a method and no id (a request always has one). */
function isProgress(message: unknown): boolean {
  return (
    typeof message === 'object' && message !== null && (message as { method?: unknown }).method === PROGRESS_METHOD && !('id' in message)
  );
}
