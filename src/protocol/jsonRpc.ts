import { z } from 'zod';
import type { ServeContext } from './partialResults';

/** JSON-RPC 2.0 error codes the ingest answers with (https://www.jsonrpc.org/specification#error_object). */
export const JSON_RPC_ERROR = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
} as const;

export const JsonRpcErrorSchema = z.object({
  code: z.number().int(),
  message: z.string(),
  data: z.unknown().optional(),
});
export type JsonRpcError = z.infer<typeof JsonRpcErrorSchema>;

/**
 * The outer envelope is strict: a typo such as `parms` is a caller bug we want to see, not silently drop.
 * `params` stays `unknown` here; each method validates its own params.
 */
export const JsonRpcEnvelopeSchema = z.strictObject({
  jsonrpc: z.literal('2.0'),
  method: z.string().min(1),
  params: z.unknown().optional(),
  id: z.union([z.string(), z.number(), z.null()]).optional(),
});
export type JsonRpcEnvelope = z.infer<typeof JsonRpcEnvelopeSchema>;

/** The id of a message that may not be a valid request: absent when it has none a JSON-RPC id can be. */
export function requestIdOf(message: unknown): string | number | undefined {
  const id = typeof message === 'object' && message !== null ? (message as { id?: unknown }).id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

export function jsonRpcError(code: number, message: string, data?: unknown): JsonRpcError {
  return data === undefined ? { code, message } : { code, message, data };
}

/** One zod issue as JSON-RPC error `data` carries it: the path runs from the frame's root, as zod names it. */
export interface JsonRpcIssue {
  path: Array<string | number>;
  message: string;
}

/**
 * zod's issues with their paths from the frame's root: a params schema's issue gets `params` in front, so
 * every JSON-RPC answer of the service names the failing field the same way (`["params", "message", "type"]`).
 */
export function issuesAt(error: z.ZodError, ...prefix: Array<string | number>): JsonRpcIssue[] {
  return error.issues.map((issue) => ({
    path: [...prefix, ...issue.path.map((key) => (typeof key === 'number' ? key : String(key)))],
    message: issue.message,
  }));
}

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

/** The answer to request `id` that carries its result. */
export function success(id: JsonRpcId, result: unknown): JsonRpcResponse {
  return { jsonrpc: '2.0', id, result };
}

/** The answer to request `id` (null when the request's id could not be read) that refuses it. */
export function failure(id: JsonRpcId, error: JsonRpcError): JsonRpcFailure {
  return { jsonrpc: '2.0', id, error };
}

/**
 * Answers one JSON-RPC frame; whatever arrives, it resolves with a response (errors are values). `context`
 * says where the parts of a partial answer go, when the transport can carry them (partialResults.ts).
 */
export type ServeRequest = (message: unknown, context?: ServeContext) => Promise<JsonRpcResponse>;
