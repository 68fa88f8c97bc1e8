import { issuesAt, JSON_RPC_ERROR, jsonRpcError } from './jsonRpc';
import { ACP_METHOD, AcpPromptEndedParamsSchema, AcpPromptStartedParamsSchema, AcpUpdateParamsSchema, type AcpEvent } from './acpFrames';
import type { TurnInput } from './turnInput';

type AcpParsed = { input: TurnInput } | { error: ReturnType<typeof jsonRpcError> };

/** An ACP frame (acpFrames.ts) → its turn input or the `Invalid params` error; undefined for any other method. */
export function acpInputOf(method: string, params: unknown, envelope: unknown): AcpParsed | undefined {
  switch (method) {
    case ACP_METHOD.update:
      return read(AcpUpdateParamsSchema.safeParse(params), (p) => ({ type: 'update', update: p.update }), envelope);
    case ACP_METHOD.promptStarted:
      return read(
        AcpPromptStartedParamsSchema.safeParse(params),
        (p) => (p.prompt === undefined ? { type: 'promptStarted' } : { type: 'promptStarted', prompt: p.prompt }),
        envelope,
      );
    case ACP_METHOD.promptEnded:
      return read(
        AcpPromptEndedParamsSchema.safeParse(params),
        (p) => ({
          type: 'promptEnded',
          ...(p.stopReason === undefined ? {} : { stopReason: p.stopReason }),
          ...(p.usage === undefined ? {} : { usage: p.usage }),
          ...(p.error === undefined ? {} : { error: p.error }),
        }),
        envelope,
      );
    default:
      return undefined;
  }
}

type SafeParsed<T> = { success: true; data: T } | { success: false; error: Parameters<typeof issuesAt>[0] };

function read<T extends { threadId: string }>(parsed: SafeParsed<T>, eventOf: (params: T) => AcpEvent, envelope: unknown): AcpParsed {
  if (!parsed.success) return { error: jsonRpcError(JSON_RPC_ERROR.invalidParams, 'Invalid params', issuesAt(parsed.error, 'params')) };
  return { input: { kind: 'acp', threadId: parsed.data.threadId, event: eventOf(parsed.data), envelope } };
}
