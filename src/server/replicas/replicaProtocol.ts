import { z } from 'zod';

/** Where replicas reach each other (WebSocket, the server's bearer token): forwarded host commands. */
export const REPLICA_LINK_PATH = '/api/v1/replica';

export const REPLICA_METHOD = { hostRequest: 'replica.host_request' } as const;

/** A host command for a host attached to the replica that receives it. */
export const ForwardedRequestSchema = z.strictObject({
  hostId: z.string(),
  method: z.string(),
  params: z.unknown(),
  timeoutMs: z.number().int().positive(),
});
export type ForwardedRequest = z.infer<typeof ForwardedRequestSchema>;

/** How the host command went on the replica holding the host: its result, or the HostRequestError's parts. */
export const ForwardedOutcomeSchema = z.discriminatedUnion('ok', [
  z.strictObject({ ok: z.literal(true), result: z.unknown() }),
  z.strictObject({
    ok: z.literal(false),
    message: z.string(),
    failure: z.looseObject({ kind: z.enum(['offline', 'timeout', 'refused', 'bad_result']) }),
  }),
]);
export type ForwardedOutcome = z.infer<typeof ForwardedOutcomeSchema>;
