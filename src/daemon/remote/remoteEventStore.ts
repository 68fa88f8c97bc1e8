import { randomUUID } from 'node:crypto';
import { type JsonRpcResponse, JSON_RPC_ERROR } from '../../protocol/jsonRpc';
import type { EventStore, ListEventsOptions, NewThreadEvent, StoredThreadEvent } from '../../store/eventStore';
import { storedRowOf } from '../../protocol/threadEvents';
import { LinkStopped, type DaemonLinkClient, type ReadyHook } from './daemonLinkClient';
import { JsonText } from '../../link/jsonText';
import {
  AppendResultSchema,
  LastSeqResultSchema,
  LINK_METHOD,
  ListResultSchema,
  SEQ_CONFLICT,
  type AppendBatch,
} from '../../protocol/daemonLink';
import type { Outbox } from './outbox';
import { LinkProtocolError } from '../../link/rpcPeer';
import { refusalDrop, type RefusalDrop } from './refusedThreads';

export interface RemoteEventStoreOptions {
  link: DaemonLinkClient;
  outbox: Outbox;
  /** Wait before asking again after the server answered a store failure (it may be restarting). */
  retryMs: number;
  log(message: string): void;
  newBatchId?(): string;
}

/** The server would not take a batch as it is (its seqs collide with another writer's, or it is too big). */
export class BatchRejected extends Error {}

/** Room left in a frame for the JSON-RPC envelope around a batch. */
const ENVELOPE_BYTES = 1024;

/**
 * The remote daemon's EventStore port: the server's store, reached through the link. The pipeline's turn
 * state is rebuilt from the server's rows (`list`) after a restart, so the daemon keeps no copy of events;
 * it keeps only the outbox of batches not acked yet.
 *
 * An append is journaled and sent, and resolves once the server acks it with the stored seqs. It carries
 * the seq each thread's first event must get (this daemon is its threads' only writer and appends one batch
 * at a time), so a batch sent again after a drop or a crash is stored once (see batchApplier). Requests
 * wait while the link is down and are re-sent on the next link: a running turn's events are held, not lost.
 */
export function createRemoteEventStore(options: RemoteEventStoreOptions): EventStore {
  const { link, outbox } = options;
  const newBatchId = options.newBatchId ?? randomUUID;
  const lastSeqs = new Map<string, number>();
  let appends: Promise<unknown> = Promise.resolve();
  let closed = false;
  // Read once, at start: a later link goes on with what an earlier one left of them.
  const leftovers = outbox.pending();
  const dropRefused = refusalDrop(options.log);
  link.onReady((call) => sendLeftovers(call, leftovers, outbox, dropRefused, options.log));

  /** Answers survive drops: reads are safe to repeat, and appends are conditional on their seqs. */
  const untilAnswered = async (method: string, params: unknown): Promise<JsonRpcResponse> => {
    for (;;) {
      if (closed) throw new LinkStopped('the event store is closed');
      try {
        const answer = await link.request(method, params);
        if ('error' in answer && answer.error.code === JSON_RPC_ERROR.internalError) {
          options.log(`${method} failed on the server (${answer.error.message}); retrying`);
          await new Promise((resolve) => setTimeout(resolve, options.retryMs));
          continue;
        }
        return answer;
      } catch (error) {
        if (error instanceof LinkStopped) throw error;
        if (error instanceof LinkProtocolError) {
          options.log(`${method}: ${error.message}; retrying`);
          await new Promise((resolve) => setTimeout(resolve, options.retryMs));
        }
        // LinkClosedError: the link dropped before the answer; ask again on the next one.
      }
    }
  };

  const resultOf = (answer: JsonRpcResponse, method: string): unknown => {
    if ('error' in answer) throw new Error(`${method}: ${answer.error.message}`);
    return answer.result;
  };

  const lastSeq = async (threadId: string): Promise<number> =>
    LastSeqResultSchema.parse(resultOf(await untilAnswered(LINK_METHOD.lastSeq, { threadId }), LINK_METHOD.lastSeq)).lastSeq;

  const appendNow = async (events: readonly NewThreadEvent[]): Promise<StoredThreadEvent[]> => {
    if (events.length === 0) return [];
    const firstSeqs: Record<string, number> = {};
    for (const event of events) {
      if (firstSeqs[event.threadId] !== undefined) continue;
      const known = lastSeqs.get(event.threadId) ?? (await lastSeq(event.threadId));
      lastSeqs.set(event.threadId, known);
      firstSeqs[event.threadId] = known + 1;
    }
    const batch: AppendBatch = { batchId: newBatchId(), events: events.map(copyEvent), firstSeqs };
    const json = JSON.stringify(batch);
    if (Buffer.byteLength(json) > link.maxFrameBytes() - ENVELOPE_BYTES) {
      // Rare (a group commit of huge tool outputs): halves go one after another, each a batch of its own.
      if (events.length === 1)
        throw new BatchRejected(
          `an event of ${Buffer.byteLength(json)} bytes does not fit the link's frame limit of ${link.maxFrameBytes()}`,
        );
      const half = Math.ceil(events.length / 2);
      const head = await appendNow(events.slice(0, half));
      return [...head, ...(await appendNow(events.slice(half)))];
    }
    // Journaled before it travels: whatever the server may have seen, a restart can send again.
    outbox.add(batch, json);
    const answer = await untilAnswered(LINK_METHOD.append, new JsonText(json));
    if ('error' in answer) {
      outbox.ack(batch.batchId);
      const dropped = dropRefused(batch, answer);
      // Never stored and never will be as it is: forget what we believed about these threads' seqs.
      for (const threadId of Object.keys(firstSeqs)) if (!dropped?.rest?.firstSeqs[threadId]) lastSeqs.delete(threadId);
      // The other threads' rows go on their own. The append still fails as a whole: its caller rebuilds every
      // thread of it from the server's rows, which then hold what was stored.
      if (dropped?.rest) await appendNow(dropped.rest.events);
      throw new BatchRejected(answer.error.message);
    }
    const { stored } = AppendResultSchema.parse(answer.result);
    outbox.ack(batch.batchId);
    const rows = batch.events.map((event, i): StoredThreadEvent => {
      const { seq, id, createdAt } = stored[i]!;
      return storedRowOf(event, id, seq, createdAt);
    });
    for (const row of rows) lastSeqs.set(row.threadId, Math.max(lastSeqs.get(row.threadId) ?? 0, row.seq));
    return rows;
  };

  return {
    append(events) {
      const appended = appends.then(() => appendNow(events));
      appends = appended.catch(() => undefined);
      return appended;
    },
    async list(threadId: string, listOptions: ListEventsOptions = {}) {
      const answer = await untilAnswered(LINK_METHOD.list, { threadId, ...listOptions });
      return ListResultSchema.parse(resultOf(answer, LINK_METHOD.list)).rows;
    },
    async lastSeq(threadId) {
      await appends;
      return lastSeqs.get(threadId) ?? lastSeq(threadId);
    },
    // The server deletes a thread's rows (DELETE /threads/:id) in its own store; a daemon never does.
    async deleteThread() {
      throw new Error('a thread is deleted by the server, not through a daemon link');
    },
    async close() {
      await appends;
      closed = true;
    },
  };
}

/**
 * Batches a previous run of this daemon left unacked (`leftovers`, emptied as they are answered) go first on
 * every new link, before anything can read a thread they belong to; that is what keeps hydration and seqs
 * consistent after a crash. Rows of threads the server refuses are dropped and the rest sent on its own; a seq
 * conflict drops the batch (it was a bug's).
 */
async function sendLeftovers(
  call: Parameters<ReadyHook>[0],
  leftovers: AppendBatch[],
  outbox: Outbox,
  dropRefused: RefusalDrop,
  log: (message: string) => void,
) {
  while (leftovers.length > 0) {
    const batch = leftovers[0]!;
    const answer = await call(LINK_METHOD.append, batch);
    const dropped = dropRefused(batch, answer);
    if (dropped) {
      if (dropped.rest) {
        outbox.add(dropped.rest);
        leftovers[0] = dropped.rest;
      } else {
        outbox.ack(batch.batchId);
        leftovers.shift();
      }
      continue;
    }
    if ('error' in answer && answer.error.code !== SEQ_CONFLICT) throw new Error(answer.error.message);
    if ('error' in answer) log(`dropped unacked batch ${batch.batchId}: ${answer.error.message}`);
    else log(`re-sent batch ${batch.batchId} (${batch.events.length} events) left by an earlier run`);
    outbox.ack(batch.batchId);
    leftovers.shift();
  }
}

function copyEvent(event: NewThreadEvent): NewThreadEvent {
  return { threadId: event.threadId, type: event.type, turnId: event.turnId, scope: event.scope, data: event.data } as NewThreadEvent;
}
