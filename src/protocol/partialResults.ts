import { z } from 'zod';

/**
 * Partial results, as LSP streams them (`partialResultToken` + `$/progress`): a command that can answer in
 * parts (a 50k-line diff) sends each part as a notification while it still works, and its response holds
 * what no part carried. The caller asks for parts by putting a token in the params (the host link uses the
 * request's own id); a serving side that gets no token, or has nowhere to send parts, answers whole.
 */
export const PROGRESS_METHOD = '$/progress';

export const PartialResultTokenSchema = z.union([z.string().min(1), z.number()]);
export type PartialResultToken = z.infer<typeof PartialResultTokenSchema>;

/** A notification (no id: nothing answers it) carrying one part of the answer to the request named by `token`. */
export const ProgressNotificationSchema = z.strictObject({
  jsonrpc: z.literal('2.0'),
  method: z.literal(PROGRESS_METHOD),
  params: z.strictObject({ token: PartialResultTokenSchema, value: z.unknown() }),
});
export type ProgressNotification = z.infer<typeof ProgressNotificationSchema>;

export function progressNotification(token: PartialResultToken, value: unknown): ProgressNotification {
  return { jsonrpc: '2.0', method: PROGRESS_METHOD, params: { token, value } };
}

/** What a transport gives the serving side besides the message: where the parts of its answer go. */
export interface ServeContext {
  progress?(token: PartialResultToken, value: unknown): void;
}
