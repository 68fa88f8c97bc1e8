import { z } from 'zod';
import { HostRequestError } from '../../protocol/hostErrors';
import { type JsonRpcResponse, issuesAt, JSON_RPC_ERROR, JsonRpcEnvelopeSchema, jsonRpcError, type JsonRpcError } from '../../protocol/jsonRpc';
import { parsePromptSignalMethod, SDK_MESSAGE_METHOD } from '../../protocol/signals';
import type { Registry } from '../../registry/registry';
import type { HostDirectory } from '../hosts/hostDirectory';
import { INTAKE_MAX_DEPTH, nestsDeeperThan } from './frameDepth';

/** Intake-specific JSON-RPC codes (server range): the thread's host is not connected / did not answer. */
export const INTAKE_ERROR = { hostOffline: -32001, hostTimeout: -32002 } as const;

const ThreadParamsSchema = z.looseObject({ threadId: z.string().regex(/^thr_/, 'a thread id starts with thr_') });

export interface IntakeDeps {
  registry: Registry;
  hosts: HostDirectory;
  timeoutMs: number;
  log(message: string): void;
}

/**
 * `answer` settles with the JSON-RPC answer once the frame is stored or refused. For a notification (a valid
 * envelope without an id) it is only for the server's log: JSON-RPC 2.0 never answers a notification.
 */
export interface DispatchedFrame {
  answer: Promise<JsonRpcResponse>;
  notification: boolean;
}

/**
 * Checks one intake frame's envelope, finds the thread's host and hands the frame over. Resolves as soon as
 * the frame is on its way (in order: the host's pipeline takes frames in the order they were handed over),
 * without waiting for it to be stored; `answer` waits for that. Translation happens in the host's pipeline.
 * Never rejects: every failure is an answer.
 */
export async function dispatchIntakeFrame(deps: IntakeDeps, text: string): Promise<DispatchedFrame> {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return answered(failure(null, jsonRpcError(JSON_RPC_ERROR.parseError, 'parse error: the frame is not JSON')), false);
  }
  const envelope = JsonRpcEnvelopeSchema.safeParse(message);
  if (!envelope.success) {
    // Not a valid request, so it may have been meant as one: it is answered.
    return answered(failure(idOf(message), jsonRpcError(JSON_RPC_ERROR.invalidRequest, 'invalid request: not a JSON-RPC 2.0 request or notification', issuesAt(envelope.error))), false);
  }
  const notification = envelope.data.id === undefined;
  const id = envelope.data.id ?? null;
  const refuse = (error: JsonRpcError) => answered(failure(id, error), notification);
  // Refused here, the same for every host: deeper, the embedded link's copy and the remote link's send both
  // overflow the stack, and the sender would hear "host offline" or "internal error" for a bad frame.
  if (nestsDeeperThan(text, INTAKE_MAX_DEPTH)) {
    return refuse(jsonRpcError(JSON_RPC_ERROR.invalidRequest, `invalid request: the frame nests arrays and objects deeper than ${INTAKE_MAX_DEPTH} levels`));
  }
  try {
    const { method } = envelope.data;
    if (method !== SDK_MESSAGE_METHOD && !parsePromptSignalMethod(method)) {
      return refuse(jsonRpcError(JSON_RPC_ERROR.methodNotFound, `method not found: ${method} (the intake takes sdk/message and <providerId>/prompt/started|settled)`));
    }
    const params = ThreadParamsSchema.safeParse(envelope.data.params);
    if (!params.success) return refuse(jsonRpcError(JSON_RPC_ERROR.invalidParams, 'invalid params', issuesAt(params.error, 'params')));
    const thread = await deps.registry.threads.get(params.data.threadId);
    if (!thread) {
      return refuse(jsonRpcError(JSON_RPC_ERROR.invalidParams, `unknown thread ${params.data.threadId}`, [{ path: ['params', 'threadId'], message: 'no such thread' }]));
    }
    const link = deps.hosts.linkOf(thread.hostId);
    if (!link) return refuse(jsonRpcError(INTAKE_ERROR.hostOffline, `host ${thread.hostId} of thread ${thread.id} is offline`));
    // Not awaited: the request is on its way once `request` returns, which is all the ordering needs.
    const stored = link.request('thread.ingest', { frame: envelope.data, providerThreadId: thread.providerThreadId }, { timeoutMs: deps.timeoutMs });
    const answer = stored.then(
      ({ seqs }): JsonRpcResponse => ({ jsonrpc: '2.0', id, result: { seqs } }),
      (error: unknown) => failure(id, rpcErrorOf(error, thread.hostId)),
    );
    return { answer, notification };
  } catch (cause) {
    // A registry read that failed, or a bug: the sender learns that the frame failed, the log learns why.
    deps.log(`intake frame failed: ${String(cause)}`);
    return refuse(jsonRpcError(JSON_RPC_ERROR.internalError, 'internal error'));
  }
}

function answered(response: JsonRpcResponse, notification: boolean): DispatchedFrame {
  return { answer: Promise.resolve(response), notification };
}

function rpcErrorOf(error: unknown, hostId: string): JsonRpcError {
  if (!(error instanceof HostRequestError)) return jsonRpcError(JSON_RPC_ERROR.internalError, 'internal error');
  const { failure: f } = error;
  if (f.kind === 'timeout') return jsonRpcError(INTAKE_ERROR.hostTimeout, `host ${hostId} did not answer within ${f.timeoutMs} ms`);
  if (f.kind === 'offline') return jsonRpcError(INTAKE_ERROR.hostOffline, `host ${hostId} went offline`);
  // The pipeline's own code and data (e.g. -32602 with zod's issue path) go back to the sender unchanged.
  if (f.kind === 'refused') return jsonRpcError(f.rpcCode, error.message, f.details);
  return jsonRpcError(JSON_RPC_ERROR.internalError, error.message);
}

function idOf(message: unknown): string | number | null {
  const id = typeof message === 'object' && message !== null ? (message as { id?: unknown }).id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

function failure(id: string | number | null, error: JsonRpcError): JsonRpcResponse {
  return { jsonrpc: '2.0', id, error };
}
