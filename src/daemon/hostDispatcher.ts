import {
  issuesAt,
  JSON_RPC_ERROR,
  jsonRpcError,
  type JsonRpcError,
  JsonRpcRequestSchema,
  type JsonRpcId,
  type JsonRpcResponse,
  type ServeRequest,
  requestIdOf,
} from '../protocol/jsonRpc';
import { hostCommands, isHostMethod, type HostMethod, type HostResult, type ParsedHostParams } from '../protocol/hostContract';
import { HostCommandError } from '../protocol/hostErrors';

/** One async function per contract command, given already-validated params. */
export type HostHandlers = { [M in HostMethod]: (params: ParsedHostParams<M>) => Promise<HostResult<M>> };

/** Thrown-by-handler errors that are not HostCommandError are bugs; the peer learns only that it failed. */
export type HostDispatcher = ServeRequest;

/**
 * The daemon side of the contract: validates a JSON-RPC request against the contract, runs its handler and
 * answers with a JSON-RPC response. Never throws: every failure is an error response, so one bad request
 * cannot take a link down.
 */
export function createHostDispatcher(handlers: HostHandlers, log: (message: string) => void = () => {}): HostDispatcher {
  return async (message) => {
    const request = JsonRpcRequestSchema.safeParse(message);
    const id = requestIdOf(message) ?? null;
    if (!request.success) {
      return fail(id, jsonRpcError(JSON_RPC_ERROR.invalidRequest, 'invalid JSON-RPC request', issuesAt(request.error)));
    }
    const { method } = request.data;
    if (!isHostMethod(method)) return fail(id, jsonRpcError(JSON_RPC_ERROR.methodNotFound, `unknown method ${method}`));
    const params = hostCommands[method].params.safeParse(request.data.params);
    if (!params.success) {
      return fail(id, jsonRpcError(JSON_RPC_ERROR.invalidParams, `invalid params for ${method}`, issuesAt(params.error, 'params')));
    }
    try {
      const handler = handlers[method] as (params: unknown) => Promise<unknown>;
      return { jsonrpc: '2.0', id, result: await handler(params.data) };
    } catch (error) {
      const refused = asRefused(error);
      if (refused) return fail(id, refused);
      log(`host command ${method} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      return fail(id, jsonRpcError(JSON_RPC_ERROR.internalError, `host command ${method} failed`));
    }
  };
}

function asRefused(error: unknown): JsonRpcError | undefined {
  if (!(error instanceof HostCommandError)) return undefined;
  const { code, details } = error;
  return jsonRpcError(error.rpcCode, error.message, details === undefined ? { hostCode: code } : { hostCode: code, details });
}

function fail(id: JsonRpcId, error: JsonRpcError): JsonRpcResponse {
  return { jsonrpc: '2.0', id, error };
}
