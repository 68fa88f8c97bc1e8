import { JSON_RPC_ERROR, jsonRpcError, type JsonRpcError, type JsonRpcRequest } from '../../protocol/jsonRpc';
import type { z } from 'zod';
import type { ServedMethod } from '../../protocol/serveMethods';
import type { EventStore } from '../../store/eventStore';
import { createBatchApplier, SeqConflict } from './batchApplier';
import {
  AppendBatchSchema,
  LastSeqParamsSchema,
  LINK_METHOD,
  ListParamsSchema,
  SEQ_CONFLICT,
  THREAD_NOT_OWNED,
  type ThreadNotOwnedData,
} from '../../protocol/daemonLink';
import type { LinkThreadScope } from './linkThreadScope';

/** A request named threads that are not the link's host's: answered THREAD_NOT_OWNED, nothing stored or read. */
export class ThreadsNotOwned extends Error {
  constructor(
    readonly hostId: string,
    readonly threadIds: readonly string[],
  ) {
    super(`not a thread of host ${hostId}: ${threadIds.join(', ')}`);
  }
}

/** The link's host and the threads it may touch; known once its hello is accepted. */
export interface LinkOwner {
  hostId: string;
  scope: LinkThreadScope;
}

/**
 * The server's side of a daemon's `store.*` requests: the remote daemon's EventStore port, backed by the
 * server's own store, served through the link's gate (serveMethods checks the params). Appends go through
 * the exactly-once batch applier shared by every link. Each link gets its own methods, which run its
 * requests one at a time in the order they came, so a read sees the link's earlier appends. Every request
 * names only threads of the link's own host (issue 37), checked in that same order, right before it runs.
 */
export function createLinkStoreMethods(store: EventStore) {
  const applier = createBatchApplier(store);
  return (ownerOf: () => LinkOwner) => {
    let queue: Promise<unknown> = Promise.resolve();
    const inOrder = <R>(work: () => Promise<R>): Promise<R> => {
      const answered = queue.then(work);
      queue = answered.catch(() => undefined);
      return answered;
    };
    /** Runs `work` only when every thread named is the host's own. */
    const ownThreads = <R>(threadIds: Iterable<string>, work: () => Promise<R>): Promise<R> =>
      inOrder(async () => {
        const { hostId, scope } = ownerOf();
        const refused = await scope.refused(threadIds);
        if (refused.length > 0) throw new ThreadsNotOwned(hostId, refused);
        return work();
      });
    return {
      [LINK_METHOD.append]: {
        params: AppendBatchSchema,
        handle: (batch: z.output<typeof AppendBatchSchema>) =>
          ownThreads(threadsOf(batch), async () => ({ batchId: batch.batchId, stored: await applier.apply(batch) })),
      },
      [LINK_METHOD.list]: {
        params: ListParamsSchema,
        handle: ({ threadId, ...options }: z.output<typeof ListParamsSchema>) =>
          ownThreads([threadId], async () => ({ rows: await store.list(threadId, options) })),
      },
      [LINK_METHOD.lastSeq]: {
        params: LastSeqParamsSchema,
        handle: ({ threadId }: z.output<typeof LastSeqParamsSchema>) =>
          ownThreads([threadId], async () => ({ lastSeq: await store.lastSeq(threadId) })),
      },
    } satisfies Record<string, ServedMethod>;
  };
}

/** Every thread a batch touches: its events' and its `firstSeqs`' (a key with no event must be the host's too). */
function threadsOf(batch: z.output<typeof AppendBatchSchema>): Set<string> {
  const threadIds = new Set(Object.keys(batch.firstSeqs));
  for (const event of batch.events) threadIds.add(event.threadId);
  return threadIds;
}

const STORE_METHODS: ReadonlySet<string> = new Set([LINK_METHOD.append, LINK_METHOD.list, LINK_METHOD.lastSeq]);

/**
 * How a failed `store.*` request is answered: threads not the host's with their ids (the daemon drops their
 * rows); a seq conflict with what the daemon needs to resynchronise; any other store failure (disk full,
 * store closing) with its cause, and the daemon keeps the batch and sends it again later. Undefined for the
 * link's other methods, which the gate answers as bugs.
 */
export function storeFailureOf(thrown: unknown, request: JsonRpcRequest): JsonRpcError | undefined {
  if (!STORE_METHODS.has(request.method)) return undefined;
  if (thrown instanceof ThreadsNotOwned) {
    const data: ThreadNotOwnedData = { threadIds: [...thrown.threadIds] };
    return jsonRpcError(THREAD_NOT_OWNED, thrown.message, data);
  }
  if (thrown instanceof SeqConflict) {
    const { threadId, expectedFirstSeq, storedLastSeq } = thrown;
    return jsonRpcError(SEQ_CONFLICT, thrown.message, { threadId, expectedFirstSeq, storedLastSeq });
  }
  return jsonRpcError(JSON_RPC_ERROR.internalError, `${request.method} failed: ${String(thrown)}`);
}
