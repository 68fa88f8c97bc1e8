import { z } from 'zod';
import { JsonRpcErrorSchema } from './jsonRpc';

/** Ids the host link uses: the caller numbers its requests; `null` only answers a frame that could not be read. */
export const JsonRpcIdSchema = z.union([z.string(), z.number(), z.null()]);
export type JsonRpcId = z.infer<typeof JsonRpcIdSchema>;

export const JsonRpcRequestSchema = z.strictObject({
  jsonrpc: z.literal('2.0'),
  id: z.union([z.string(), z.number()]),
  method: z.string().min(1),
  params: z.unknown().optional(),
});
export type JsonRpcRequest = z.infer<typeof JsonRpcRequestSchema>;

export const JsonRpcSuccessSchema = z.strictObject({ jsonrpc: z.literal('2.0'), id: JsonRpcIdSchema, result: z.unknown() });
export const JsonRpcFailureSchema = z.strictObject({
  jsonrpc: z.literal('2.0'),
  id: JsonRpcIdSchema,
  error: JsonRpcErrorSchema,
});
export const JsonRpcResponseSchema = z.union([JsonRpcSuccessSchema, JsonRpcFailureSchema]);
export type JsonRpcResponse = z.infer<typeof JsonRpcResponseSchema>;
export type JsonRpcFailure = z.infer<typeof JsonRpcFailureSchema>;
