import type { z } from 'zod';
import { HostCommandError } from './hostErrors';
import {
  failure,
  issuesAt,
  JSON_RPC_ERROR,
  jsonRpcError,
  type JsonRpcError,
  type JsonRpcRequest,
  JsonRpcRequestSchema,
  requestIdOf,
  type ServeRequest,
  success,
} from './jsonRpc';
import type { ServeContext } from './partialResults';

/** One method a JSON-RPC server serves: its params schema, and a handler that gets only params it accepted. */
export interface ServedMethod<S extends z.ZodType = z.ZodType> {
  params: S;
  handle(params: z.output<S>, request: JsonRpcRequest, context: ServeContext): unknown;
  /** Told when a request's params fail `params`, e.g. so the daemon link can close a socket whose hello is bad. */
  invalidParams?(request: JsonRpcRequest): void;
}

/** Methods by name; `serveMethods` infers each handler's params from its schema. */
export type ServedMethods<T extends Record<string, z.ZodType>> = { [M in keyof T]: ServedMethod<T[M]> };

export interface ServeOptions {
  /** Where a handler's unexpected failure is written, with its stack: the peer only learns that it failed. */
  log?(message: string): void;
  /**
   * A refusal that depends on the conversation rather than on the request (the daemon link: `link.hello`
   * first, and once), checked after the envelope and before the method is looked up.
   */
  admit?(request: JsonRpcRequest): JsonRpcError | undefined;
  /** The answer to something a handler threw, when it is not a HostCommandError; undefined for the default. */
  errorOf?(thrown: unknown, request: JsonRpcRequest): JsonRpcError | undefined;
  /** Names a method in the -32603 answer and the log: `${what} ${method} failed` (default `request`). */
  what?: string;
}

/**
 * The one JSON-RPC 2.0 gate of every server of ours, whatever carries the messages (a WebSocket, the
 * in-process link, stdio): a message in, a response out, never a throw.
 *
 *   not a request        → -32600, the request's id when readable, else null
 *   refused by `admit`   → its error
 *   method not served    → -32601
 *   params fail schema   → -32602 with zod's issues from the frame's root (`["params", …]`)
 *   handler resolves     → result
 *   HostCommandError     → its rpc code, `{ hostCode, details }` as data
 *   anything else thrown → `errorOf`, or -32603 and the log
 *
 * Everything up to the handler's call runs synchronously when `serve(message)` is called, so a transport
 * that calls it in arrival order hands requests to their handlers in that order.
 */
export function serveMethods<T extends Record<string, z.ZodType>>(methods: ServedMethods<T>, options: ServeOptions = {}): ServeRequest {
  const served = methods as Record<string, ServedMethod | undefined>;
  const { log = () => {}, admit, errorOf, what = 'request' } = options;
  return async (message, context = {}) => {
    const parsed = JsonRpcRequestSchema.safeParse(message);
    if (!parsed.success) {
      const id = requestIdOf(message) ?? null;
      return failure(id, jsonRpcError(JSON_RPC_ERROR.invalidRequest, 'invalid request', issuesAt(parsed.error)));
    }
    const request = parsed.data;
    const { id, method } = request;
    const refused = admit?.(request);
    if (refused) return failure(id, refused);
    const entry = Object.hasOwn(served, method) ? served[method] : undefined;
    if (!entry) return failure(id, jsonRpcError(JSON_RPC_ERROR.methodNotFound, `unknown method ${method}`));
    const params = entry.params.safeParse(request.params);
    if (!params.success) {
      entry.invalidParams?.(request);
      return failure(id, jsonRpcError(JSON_RPC_ERROR.invalidParams, `invalid params for ${method}`, issuesAt(params.error, 'params')));
    }
    try {
      return success(id, await entry.handle(params.data, request, context));
    } catch (thrown) {
      const error = hostRefusalOf(thrown) ?? errorOf?.(thrown, request);
      if (error) return failure(id, error);
      log(`${what} ${method} failed: ${thrown instanceof Error ? (thrown.stack ?? thrown.message) : String(thrown)}`);
      return failure(id, jsonRpcError(JSON_RPC_ERROR.internalError, `${what} ${method} failed`));
    }
  };
}

function hostRefusalOf(thrown: unknown): JsonRpcError | undefined {
  if (!(thrown instanceof HostCommandError)) return undefined;
  const { code, details } = thrown;
  return jsonRpcError(thrown.rpcCode, thrown.message, details === undefined ? { hostCode: code } : { hostCode: code, details });
}
