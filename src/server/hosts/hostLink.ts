import { Observable } from 'rxjs';
import type { z } from 'zod';
import {
  hostCommands,
  type HostHello,
  type HostMethod,
  type HostParams,
  type HostPart,
  type HostResult,
} from '../../protocol/hostContract';
import { HostErrorDataSchema, HostRequestError } from '../../protocol/hostErrors';
import { JSON_RPC_ERROR, JsonRpcResponseSchema, type JsonRpcRequest } from '../../protocol/jsonRpc';
import { withRequestTimeout } from './withRequestTimeout';

export interface HostRequestOptions<M extends HostMethod = HostMethod> {
  /** Overrides the link's default; the HTTP caller gets 504 when it passes. */
  timeoutMs?: number;
  /**
   * Asks a command that can answer in parts for them (partialResults.ts): each part, checked against the
   * contract, in order, before the result. A part that fails the check fails the request.
   */
  onPartial?(part: HostPart<M>): void;
}

/**
 * The server's handle on one connected host daemon, whatever carries the bytes. Requests reject only with
 * HostRequestError (offline, timeout, refused, bad result).
 */
export interface HostLink {
  readonly hello: HostHello;
  /** The server's own daemon, in this process: its host record says so, and it cannot be removed. */
  readonly embedded?: boolean;
  request<M extends HostMethod>(method: M, params: HostParams<M>, options?: HostRequestOptions<M>): Promise<HostResult<M>>;
  /** Completes when the link is gone (daemon closed, socket dropped). */
  readonly closed$: Observable<void>;
  close(): Promise<void>;
}

/**
 * A transport only has to deliver one request and hand back the raw response (or reject when the peer is
 * gone); given `onProgress`, it also hands over, unchecked, each part the peer sends for the request's id.
 */
export type SendRequest = (request: JsonRpcRequest, onProgress?: (value: unknown) => void) => Promise<unknown>;

export interface HostRequesterOptions {
  /**
   * Whether params are checked against the contract before they are sent (default true). A link to a daemon
   * in this process says false: the daemon's dispatcher, the one gate of its requests, checks them in this
   * same process, and a keystroke's params need not pass the same schema twice on one thread.
   */
  checkParams?: boolean;
  /**
   * Whether results and parts are checked against the contract (default true: a remote daemon is another
   * party). The daemon in this process says false: its handlers are typed against the same contract, and a
   * 4 MB diff checked again cost 20–30 ms and as much again in garbage on the one thread serving it.
   */
  checkResults?: boolean;
}

/**
 * The caller half of the contract over any transport: numbers requests, validates params before they leave
 * the process and results after, applies the timeout and maps JSON-RPC errors to HostRequestError.
 */
export function createHostRequester(
  send: SendRequest,
  defaultTimeoutMs: number,
  { checkParams = true, checkResults = true }: HostRequesterOptions = {},
): HostLink['request'] {
  let nextId = 1;
  return async (method, params, options) => {
    const command = hostCommands[method];
    let sent: unknown = params;
    if (checkParams) {
      const checked = command.params.safeParse(params);
      if (!checked.success) {
        throw new HostRequestError(
          { kind: 'refused', rpcCode: JSON_RPC_ERROR.invalidParams, hostCode: 'invalid_params', details: checked.error.issues },
          `invalid params for ${method}`,
        );
      }
      sent = checked.data;
    }
    const timeoutMs = options?.timeoutMs ?? defaultTimeoutMs;
    const id = nextId++;
    const parts = partsOf(command, options?.onPartial, checkResults);
    if (parts) sent = { ...(sent as object), partialResultToken: id };
    const raw = await withRequestTimeout(send({ jsonrpc: '2.0', id, method, params: sent }, parts?.take), timeoutMs, method).catch(
      (error: unknown) => {
        throw error instanceof HostRequestError ? error : new HostRequestError({ kind: 'offline' }, `host went away during ${method}`);
      },
    );
    if (parts?.failed) throw new HostRequestError({ kind: 'bad_result', issues: parts.failed }, `unexpected part of ${method}`);
    const response = JsonRpcResponseSchema.safeParse(raw);
    if (!response.success)
      throw new HostRequestError({ kind: 'bad_result', issues: response.error.issues }, `malformed answer to ${method}`);
    if ('error' in response.data) {
      const { code, message, data } = response.data.error;
      const hostData = HostErrorDataSchema.safeParse(data);
      throw new HostRequestError(
        hostData.success
          ? { kind: 'refused', rpcCode: code, hostCode: hostData.data.hostCode, details: hostData.data.details }
          : // The gate's own -32602 (params that fail the contract) is the same refusal as a command's invalid_params.
            code === JSON_RPC_ERROR.invalidParams
            ? { kind: 'refused', rpcCode: code, hostCode: 'invalid_params', details: data }
            : { kind: 'refused', rpcCode: code, details: data },
        message,
      );
    }
    if (!checkResults) return response.data.result as HostResult<typeof method>;
    const result = command.result.safeParse(response.data.result);
    if (!result.success) throw new HostRequestError({ kind: 'bad_result', issues: result.error.issues }, `unexpected result of ${method}`);
    return result.data as HostResult<typeof method>;
  };
}

/**
 * The parts of one request: each checked against the command's `partial` schema and handed on; after one
 * fails the check, the rest are dropped and the request fails when its answer comes.
 */
function partsOf(
  command: object,
  onPartial: ((part: never) => void) | undefined,
  check: boolean,
): { take(value: unknown): void; failed?: z.ZodIssue[] } | undefined {
  const schema = 'partial' in command ? (command.partial as z.ZodType) : undefined;
  if (!schema || !onPartial) return undefined;
  const parts: { take(value: unknown): void; failed?: z.ZodIssue[] } = {
    take(value) {
      if (parts.failed) return;
      const checked = check ? schema.safeParse(value) : { success: true as const, data: value };
      if (checked.success) (onPartial as (part: unknown) => void)(checked.data);
      else parts.failed = checked.error.issues;
    },
  };
  return parts;
}
