import type { z } from 'zod';
import { type JsonRpcRequest, type JsonRpcResponse, issuesAt, JSON_RPC_ERROR, jsonRpcError } from '../../protocol/jsonRpc';
import type { EventStore } from '../../store/eventStore';
import { createBatchApplier, SeqConflict } from './batchApplier';
import { AppendBatchSchema, LastSeqParamsSchema, LINK_METHOD, ListParamsSchema, SEQ_CONFLICT } from '../../protocol/daemonLink';

/**
 * The server's answers to a daemon's `store.*` requests: the remote daemon's EventStore port, backed by the
 * server's own store. Appends go through the exactly-once batch applier shared by every link.
 */
export function createLinkStoreHandler(store: EventStore): (request: JsonRpcRequest) => Promise<JsonRpcResponse> {
  const applier = createBatchApplier(store);

  const handlers: Record<string, (params: unknown) => Promise<unknown>> = {
    [LINK_METHOD.append]: async (params) => {
      const batch = parse(AppendBatchSchema, params);
      return { batchId: batch.batchId, stored: await applier.apply(batch) };
    },
    [LINK_METHOD.list]: async (params) => {
      const { threadId, ...options } = parse(ListParamsSchema, params);
      return { rows: await store.list(threadId, options) };
    },
    [LINK_METHOD.lastSeq]: async (params) => ({ lastSeq: await store.lastSeq(parse(LastSeqParamsSchema, params).threadId) }),
  };

  return async (request) => {
    const handler = handlers[request.method];
    if (!handler)
      return { jsonrpc: '2.0', id: request.id, error: jsonRpcError(JSON_RPC_ERROR.methodNotFound, `unknown method ${request.method}`) };
    try {
      return { jsonrpc: '2.0', id: request.id, result: await handler(request.params) };
    } catch (error) {
      if (error instanceof InvalidParams)
        return {
          jsonrpc: '2.0',
          id: request.id,
          error: jsonRpcError(JSON_RPC_ERROR.invalidParams, `invalid params for ${request.method}`, error.issues),
        };
      if (error instanceof SeqConflict) {
        const { threadId, expectedFirstSeq, storedLastSeq } = error;
        return {
          jsonrpc: '2.0',
          id: request.id,
          error: jsonRpcError(SEQ_CONFLICT, error.message, { threadId, expectedFirstSeq, storedLastSeq }),
        };
      }
      // A store failure (disk full, store closing): the daemon keeps the batch and sends it again later.
      return {
        jsonrpc: '2.0',
        id: request.id,
        error: jsonRpcError(JSON_RPC_ERROR.internalError, `${request.method} failed: ${String(error)}`),
      };
    }
  };
}

class InvalidParams extends Error {
  constructor(readonly issues: unknown) {
    super('invalid params');
  }
}

function parse<S extends z.ZodType>(schema: S, params: unknown): z.infer<S> {
  const parsed = schema.safeParse(params);
  if (!parsed.success) throw new InvalidParams(issuesAt(parsed.error, 'params'));
  return parsed.data;
}
