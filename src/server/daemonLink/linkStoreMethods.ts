import { JSON_RPC_ERROR, jsonRpcError, type JsonRpcError, type JsonRpcRequest } from '../../protocol/jsonRpc';
import type { z } from 'zod';
import type { ServedMethod } from '../../protocol/serveMethods';
import type { EventStore } from '../../store/eventStore';
import { createBatchApplier, SeqConflict } from './batchApplier';
import { AppendBatchSchema, LastSeqParamsSchema, LINK_METHOD, ListParamsSchema, SEQ_CONFLICT } from '../../protocol/daemonLink';

/**
 * The server's side of a daemon's `store.*` requests: the remote daemon's EventStore port, backed by the
 * server's own store, served through the link's gate (serveMethods checks the params). Appends go through
 * the exactly-once batch applier shared by every link. Each link gets its own methods, which run its
 * requests one at a time in the order they came, so a read sees the link's earlier appends.
 */
export function createLinkStoreMethods(store: EventStore) {
  const applier = createBatchApplier(store);
  return () => {
    let queue: Promise<unknown> = Promise.resolve();
    const inOrder = <R>(work: () => Promise<R>): Promise<R> => {
      const answered = queue.then(work);
      queue = answered.catch(() => undefined);
      return answered;
    };
    return {
      [LINK_METHOD.append]: {
        params: AppendBatchSchema,
        handle: (batch: z.output<typeof AppendBatchSchema>) =>
          inOrder(async () => ({ batchId: batch.batchId, stored: await applier.apply(batch) })),
      },
      [LINK_METHOD.list]: {
        params: ListParamsSchema,
        handle: ({ threadId, ...options }: z.output<typeof ListParamsSchema>) =>
          inOrder(async () => ({ rows: await store.list(threadId, options) })),
      },
      [LINK_METHOD.lastSeq]: {
        params: LastSeqParamsSchema,
        handle: ({ threadId }: z.output<typeof LastSeqParamsSchema>) => inOrder(async () => ({ lastSeq: await store.lastSeq(threadId) })),
      },
    } satisfies Record<string, ServedMethod>;
  };
}

const STORE_METHODS: ReadonlySet<string> = new Set([LINK_METHOD.append, LINK_METHOD.list, LINK_METHOD.lastSeq]);

/**
 * How a failed `store.*` request is answered: a seq conflict with what the daemon needs to resynchronise; any
 * other store failure (disk full, store closing) with its cause, and the daemon keeps the batch and sends it
 * again later. Undefined for the link's other methods, which the gate answers as bugs.
 */
export function storeFailureOf(thrown: unknown, request: JsonRpcRequest): JsonRpcError | undefined {
  if (!STORE_METHODS.has(request.method)) return undefined;
  if (thrown instanceof SeqConflict) {
    const { threadId, expectedFirstSeq, storedLastSeq } = thrown;
    return jsonRpcError(SEQ_CONFLICT, thrown.message, { threadId, expectedFirstSeq, storedLastSeq });
  }
  return jsonRpcError(JSON_RPC_ERROR.internalError, `${request.method} failed: ${String(thrown)}`);
}
