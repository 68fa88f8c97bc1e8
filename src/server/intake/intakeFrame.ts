import { HostRequestError } from '../../protocol/hostErrors';
import {
  failure,
  type JsonRpcResponse,
  JSON_RPC_ERROR,
  jsonRpcError,
  requestIdOf,
  type JsonRpcError,
  success,
} from '../../protocol/jsonRpc';
import { parseDecodedFrame } from '../../protocol/parseFrame';
import { plainFrameOf } from '../../protocol/plainFrame';
import { parsePromptSignalMethod, SDK_MESSAGE_METHOD } from '../../protocol/signals';
import type { Registry } from '../../registry/registry';
import type { ThreadRecord } from '../../registry/records';
import type { HostDirectory } from '../hosts/hostDirectory';
import { nestsDeeperThan } from '../../protocol/jsonTextScan';
import { INTAKE_MAX_DEPTH } from './frameDepth';

/** Intake-specific JSON-RPC codes (server range): the thread's host is not connected / did not answer. */
export const INTAKE_ERROR = { hostOffline: -32001, hostTimeout: -32002 } as const;

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

/** A frame whose envelope passed: what handing it to its thread's host needs. */
export interface RoutedFrame {
  id: string | number | null;
  notification: boolean;
  threadId: string;
  /** The frame as parsed; it goes on as it is: the host's pipeline is where it is validated, once. */
  message: unknown;
}

/**
 * Checks one intake frame's envelope without any I/O: either the frame is answered already (not JSON, not
 * an envelope, an unknown method, too deep) or it is routed to a thread.
 */
export function readIntakeFrame(text: string): { answered: DispatchedFrame } | { routed: RoutedFrame } {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return { answered: answered(failure(null, jsonRpcError(JSON_RPC_ERROR.parseError, 'parse error: the frame is not JSON')), false) };
  }
  const route = routeOf(message);
  const { id, notification } = route;
  if ('error' in route) return { answered: answered(failure(id, route.error), notification) };
  // Refused here, the same for every host: deeper, the remote link's send overflows the stack, and the sender
  // would hear "host offline" or "internal error" for a bad frame.
  if (nestsDeeperThan(text, INTAKE_MAX_DEPTH)) {
    const error = jsonRpcError(
      JSON_RPC_ERROR.invalidRequest,
      `invalid request: the frame nests arrays and objects deeper than ${INTAKE_MAX_DEPTH} levels`,
    );
    return { answered: answered(failure(id, error), notification) };
  }
  return { routed: { id, notification, threadId: route.threadId, message } };
}

/**
 * Hands a routed frame to its thread's host (`thread` as the registry has it, undefined when unknown).
 * Synchronous: the request is on its way when this returns, which is all the per-thread order needs (the
 * host's pipeline takes frames in the order they were handed over); `answer` waits for the rows to be stored.
 */
export function handOverFrame(
  deps: Pick<IntakeDeps, 'hosts' | 'timeoutMs'>,
  frame: RoutedFrame,
  thread: ThreadRecord | undefined,
): DispatchedFrame {
  const { id, notification, threadId } = frame;
  const refuse = (error: JsonRpcError) => answered(failure(id, error), notification);
  if (!thread) {
    return refuse(
      jsonRpcError(JSON_RPC_ERROR.invalidParams, `unknown thread ${threadId}`, [
        { path: ['params', 'threadId'], message: 'no such thread' },
      ]),
    );
  }
  const link = deps.hosts.linkOf(thread.hostId);
  if (!link) return refuse(jsonRpcError(INTAKE_ERROR.hostOffline, `host ${thread.hostId} of thread ${thread.id} is offline`));
  const stored = link.request(
    'thread.ingest',
    { frame: frame.message, providerThreadId: thread.providerThreadId },
    { timeoutMs: deps.timeoutMs },
  );
  const answer = stored.then(
    ({ seqs }): JsonRpcResponse => success(id, { seqs }),
    (error: unknown) => failure(id, rpcErrorOf(error, thread.hostId)),
  );
  return { answer, notification };
}

/** The answer to a routed frame whose thread could not be looked up (a registry read that failed, or a bug). */
export function lookupFailed(frame: RoutedFrame): DispatchedFrame {
  return answered(failure(frame.id, jsonRpcError(JSON_RPC_ERROR.internalError, 'internal error')), frame.notification);
}

type Route = { id: string | number | null; notification: boolean } & ({ threadId: string } | { error: JsonRpcError });

/**
 * What the intake needs to route a frame: its id, whether it is a notification, its thread. Nearly every
 * frame has the plain shape, read without zod; any other is read by `parseDecodedFrame`, the pipeline's own reader,
 * so a refusal here has the code and wording the pipeline would give. A frame that is not even a valid
 * envelope is answered, whatever its id: it may have been meant as a request.
 */
function routeOf(message: unknown): Route {
  const id = requestIdOf(message) ?? null;
  const hasId = typeof message === 'object' && message !== null && (message as { id?: unknown }).id !== undefined;
  const plain = plainFrameOf(message);
  let method: string;
  let threadId: string;
  if (plain) {
    method = plain.method;
    threadId = plain.params['threadId'] as string;
  } else {
    const parsed = parseDecodedFrame(message);
    if ('error' in parsed) {
      const envelopeValid = parsed.error.code !== JSON_RPC_ERROR.invalidRequest;
      return { id, notification: envelopeValid && !hasId, error: parsed.error };
    }
    method = (message as { method: string }).method;
    threadId = parsed.input.threadId;
  }
  if (method !== SDK_MESSAGE_METHOD && !parsePromptSignalMethod(method)) {
    const error = jsonRpcError(
      JSON_RPC_ERROR.methodNotFound,
      `method not found: ${method} (the intake takes sdk/message and <providerId>/prompt/started|settled)`,
    );
    return { id, notification: !hasId, error };
  }
  return { id, notification: !hasId, threadId };
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
