import { z } from 'zod';
import { NewThreadEventSchema, StoredFieldsSchema, StoredThreadEventSchema } from './threadEvents';
import { HostHelloSchema } from './hostContract';

/**
 * What a remote daemon asks of the server over `/api/v1/daemon`. The server's own requests to the daemon are
 * the host-daemon contract (src/protocol/hostContract.ts); both directions are JSON-RPC 2.0 over one WebSocket.
 */
export const DAEMON_LINK_PATH = '/api/v1/daemon';

export const LINK_METHOD = {
  hello: 'link.hello',
  append: 'store.append',
  list: 'store.list',
  lastSeq: 'store.last_seq',
} as const;

/** The first request on every link; nothing else is answered before it. */
export const LinkHelloParamsSchema = HostHelloSchema;
export const LinkHelloResultSchema = z.strictObject({
  protocolVersion: z.number().int(),
  /** The server pings this often; the daemon pings at the same pace so either side sees a dead link. */
  heartbeatMs: z.number().int().positive(),
  /** Largest frame the server takes; the daemon splits its batches to fit (a bigger frame closes the link). */
  maxPayloadBytes: z.number().int().positive(),
});
export type LinkHelloResult = z.infer<typeof LinkHelloResultSchema>;

/**
 * One `store.append`. `batchId` is the idempotency key the ack names; `firstSeqs` makes the append
 * conditional: the daemon is the only writer of its threads, so it knows which seq each thread's first
 * event must get. A batch whose seqs are already stored is answered from the store instead of stored again,
 * which is what makes re-sending after a lost ack (or a restart of either side) safe.
 */
export const AppendBatchSchema = z.strictObject({
  batchId: z.string().min(1),
  events: z.array(NewThreadEventSchema),
  firstSeqs: z.record(z.string(), z.number().int().positive()),
});
export type AppendBatch = z.infer<typeof AppendBatchSchema>;

/** What the store gave each event of the batch, in the batch's order. */
export const StoredRefSchema = StoredFieldsSchema;
export type StoredRef = z.infer<typeof StoredRefSchema>;
export const AppendResultSchema = z.strictObject({ batchId: z.string(), stored: z.array(StoredRefSchema) });
export type AppendResult = z.infer<typeof AppendResultSchema>;

export const ListParamsSchema = z.strictObject({
  threadId: z.string().min(1),
  afterSeq: z.number().int().min(0).optional(),
  limit: z.number().int().positive().optional(),
});
export const ListResultSchema = z.strictObject({
  rows: z.array(StoredThreadEventSchema),
});

export const LastSeqParamsSchema = z.strictObject({ threadId: z.string().min(1) });
export const LastSeqResultSchema = z.strictObject({ lastSeq: z.number().int().min(0) });

/** JSON-RPC error code of an append whose seqs do not line up with the store (a second writer: a bug). */
export const SEQ_CONFLICT = -32010;

/**
 * JSON-RPC error code of a `store.*` request naming a thread that is not the link's host's: another host's, the
 * server's embedded host's, one deleted, or an id that never was (issue 37). Nothing was stored or read, for
 * any thread of the request; `data` names the refused ones. The same answer for all four, so a link learns
 * nothing about threads that are not its own. A daemon drops those threads' rows and sends the rest.
 */
export const THREAD_NOT_OWNED = -32011;
export const ThreadNotOwnedDataSchema = z.object({ threadIds: z.array(z.string()).min(1) });
export type ThreadNotOwnedData = z.infer<typeof ThreadNotOwnedDataSchema>;

/** WebSocket close codes of the link (4000–4999 is the application range). */
export const LINK_CLOSE = {
  /** The daemon speaks another HOST_DAEMON_PROTOCOL_VERSION; the reason names both. It must not retry. */
  protocolMismatch: 4001,
  /** The first frame was not a valid hello, or none came in time. */
  badHello: 4002,
  /** The same host connected again; the older link gives way. */
  replaced: 4003,
  /**
   * The hello's host id is linked already, by a peer that still answers (another daemon with a copy of this
   * one's data dir), or is the server's embedded host. The daemon retries slowly: the other may go away.
   */
  duplicateHost: 4005,
  /**
   * The host was removed (`DELETE /hosts/:id`): its credential is gone and the server will not attach it again
   * until it enrolls anew (`--enroll CODE`). The daemon stops and says so; it never redials.
   */
  revoked: 4006,
  /** The hello names another host than the credential's own: a credential attaches its own host only. */
  wrongHost: 4007,
  /** The server is shutting down (RFC 6455 "going away", which any client knows); the daemon reconnects. */
  serverClosing: 1001,
} as const;
