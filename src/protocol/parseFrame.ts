import { z } from 'zod';
import { issuesAt, JSON_RPC_ERROR, JsonRpcEnvelopeSchema, jsonRpcError } from './jsonRpc';
import { acpInputOf } from './parseAcpFrame';
import { APPROVAL_METHOD, ApprovalRequestedParamsSchema, ApprovalResolvedParamsSchema } from './approvals';
import { plainFrameOf } from './plainFrame';
import {
  PromptSettledParamsSchema,
  PromptStartedParamsSchema,
  SDK_MESSAGE_METHOD,
  SdkMessageParamsSchema,
  THREAD_STOP_METHOD,
  ThreadStopSignalParamsSchema,
  parsePromptSignalMethod,
} from './signals';
import { REWIND_METHOD, ThreadRevertedParamsSchema, ThreadUnrevertedParamsSchema } from './rewindFrames';
import { isShipRowType, shipRowParamsSchema, type ShipRow } from './shipRows';
import { THREAD_UPDATED_METHOD, ThreadUpdatedParamsSchema } from './threadUpdateFrame';
import type { TurnInput } from './turnInput';

/**
 * The one reading of a frame: JSON text or value → the turn input it carries, or the JSON-RPC error that
 * refuses it. The pipeline's `validate` stage runs it on every frame; the intake runs it only on a frame it
 * cannot route by its plain shape, to answer with the same error the pipeline would give.
 */
export type Parsed = { input: TurnInput } | { error: ReturnType<typeof jsonRpcError> };

export function parseFrame(frame: unknown): Parsed {
  return parseWith(frame, true);
}

/** `parseFrame` with every frame checked by the zod schemas: the reference the quick check is tested against. */
export function parseFrameWithSchemas(frame: unknown): Parsed {
  return parseWith(frame, false);
}

/**
 * `parseFrame` for a frame its reader has already decoded (the intake): a string here is a frame that was a
 * JSON string, not an envelope, so it is refused as one (-32600) instead of being read as JSON a second time.
 */
export function parseDecodedFrame(value: unknown): Parsed {
  return parseValue(value, true);
}

function parseWith(frame: unknown, quick: boolean): Parsed {
  if (typeof frame !== 'string') return parseValue(frame, quick);
  let value: unknown;
  try {
    value = JSON.parse(frame);
  } catch (cause) {
    return { error: jsonRpcError(JSON_RPC_ERROR.parseError, 'Parse error: frame is not valid JSON', String(cause)) };
  }
  return parseValue(value, quick);
}

function parseValue(value: unknown, quick: boolean): Parsed {
  const plain = quick ? plainFrameOf(value) : undefined;
  if (plain) return inputOf(plain.method, plain.params, value, trusted);
  const envelope = JsonRpcEnvelopeSchema.safeParse(value);
  if (!envelope.success) {
    return { error: jsonRpcError(JSON_RPC_ERROR.invalidRequest, 'Invalid Request: not a JSON-RPC 2.0 envelope', issuesAt(envelope.error)) };
  }
  return inputOf(envelope.data.method, envelope.data.params, value, withParams);
}

type ReadParams = <S extends z.ZodType>(schema: S, params: unknown, toInput: (p: z.infer<S>) => TurnInput) => Parsed;

function inputOf(method: string, params: unknown, value: unknown, read: ReadParams): Parsed {
  if (method === SDK_MESSAGE_METHOD) {
    return read(SdkMessageParamsSchema, params, (p) => ({ kind: 'sdk', threadId: p.threadId, event: p.message, envelope: value }));
  }
  // ACP frames are always checked by zod: the quick check knows nothing of their params.
  const acp = acpInputOf(method, params, value);
  if (acp) return 'error' in acp ? acp : { input: acp.input };
  // Approval frames are always checked by zod too: the quick check only knows pi's frames.
  if (method === APPROVAL_METHOD.requested) {
    return withParams(ApprovalRequestedParamsSchema, params, (p) => ({ kind: 'approvalRequested', threadId: p.threadId, request: p }));
  }
  if (method === APPROVAL_METHOD.resolved) {
    return withParams(ApprovalResolvedParamsSchema, params, (p) => ({ kind: 'approvalResolved', threadId: p.threadId, resolution: p }));
  }
  // Checked by zod too: the server's own frame, rare, and strict on the fields a thread has.
  if (method === THREAD_UPDATED_METHOD) {
    return withParams(ThreadUpdatedParamsSchema, params, (p) => ({ kind: 'threadUpdated', threadId: p.threadId, changes: p }));
  }
  if (method === REWIND_METHOD.reverted) {
    return withParams(ThreadRevertedParamsSchema, params, ({ threadId, ...data }) => ({
      kind: 'rewound',
      threadId,
      change: { method: REWIND_METHOD.reverted, data },
    }));
  }
  if (method === REWIND_METHOD.unreverted) {
    return withParams(ThreadUnrevertedParamsSchema, params, ({ threadId, ...data }) => ({
      kind: 'rewound',
      threadId,
      change: { method: REWIND_METHOD.unreverted, data },
    }));
  }
  if (isShipRowType(method)) {
    return withParams(shipRowParamsSchema(method), params, ({ threadId, ...data }) => ({
      kind: 'shipRow',
      threadId,
      row: { type: method, data } as ShipRow,
    }));
  }
  if (method === THREAD_STOP_METHOD) {
    return read(ThreadStopSignalParamsSchema, params, (p) => ({ kind: 'stop', threadId: p.threadId }));
  }
  const signal = parsePromptSignalMethod(method);
  if (signal?.signal === 'settled') {
    return read(PromptSettledParamsSchema, params, (p) => ({
      kind: 'promptSettled',
      threadId: p.threadId,
      providerId: signal.providerId,
      ...(p.error === undefined ? {} : { error: p.error }),
    }));
  }
  if (signal?.signal === 'started') {
    return read(PromptStartedParamsSchema, params, (p) => ({
      kind: 'promptStarted',
      threadId: p.threadId,
      providerId: signal.providerId,
      ...(p.prompt === undefined ? {} : { prompt: p.prompt }),
    }));
  }
  return { error: jsonRpcError(JSON_RPC_ERROR.methodNotFound, `Method not found: ${method}`) };
}

function withParams<S extends z.ZodType>(schema: S, params: unknown, toInput: (p: z.infer<S>) => TurnInput): Parsed {
  const result = schema.safeParse(params);
  if (!result.success) return { error: jsonRpcError(JSON_RPC_ERROR.invalidParams, 'Invalid params', issuesAt(result.error, 'params')) };
  return { input: toInput(result.data) };
}

/** Params `plainFrameOf` already found in the shape every params schema accepts, used as they are. */
function trusted<S extends z.ZodType>(_schema: S, params: unknown, toInput: (p: z.infer<S>) => TurnInput): Parsed {
  return { input: toInput(params as z.infer<S>) };
}
