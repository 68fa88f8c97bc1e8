import path from 'node:path';
import type { RequestPermissionRequest, RequestPermissionResponse } from '@agentclientprotocol/sdk';
import type { AcpUpdate } from '../../../protocol/acpFrames';
import { commandOf, diffOf, toolCallIdOf, toolKindOf, toolTitleOf } from '../../../protocol/acpToolCalls';
import type { ApprovalDecision, ApprovalOptionKind, ApprovalQuestion } from '../../../protocol/approvals';

const OPTION_KINDS: ReadonlySet<string> = new Set<ApprovalOptionKind>(['allow_once', 'allow_always', 'reject_once', 'reject_always']);

/**
 * `session/request_permission` as the question the user sees: the tool call it is about, read the way its row
 * reads it (acpToolCalls.ts: a command line from `rawInput.command`, an argv joined, else an execute call's
 * title; the `diff` blocks as one diff text), every path it names made absolute against the thread's folder,
 * and the agent's options one to one (decided by `kind` later, since agents name them differently).
 */
export function approvalQuestionOf(request: RequestPermissionRequest, cwd: string): ApprovalQuestion {
  const call = { sessionUpdate: 'tool_call', ...request.toolCall } as AcpUpdate;
  const kind = toolKindOf(call) ?? 'other';
  // Gemini CLI sends no rawInput: its execute call's title is the command line, as the row reads it (acpToolRules).
  const command = commandOf(call) ?? (kind === 'execute' ? toolTitleOf(call) : undefined);
  const diff = diffOf(call);
  const toolCallId = toolCallIdOf(call);
  return {
    subject: {
      kind,
      title: toolTitleOf(call) ?? command ?? kind,
      ...(toolCallId === undefined ? {} : { toolCallId }),
      ...(command === undefined ? {} : { command }),
      ...(diff === undefined ? {} : { diff }),
      paths: pathsOf(request, cwd),
    },
    options: request.options.flatMap((option) =>
      OPTION_KINDS.has(option.kind) ? [{ optionId: option.optionId, name: option.name, kind: option.kind as ApprovalOptionKind }] : [],
    ),
  };
}

/** The answer for the agent: the chosen option, or `cancelled` (ACP's word for nobody chose). */
export function permissionResponseOf(decision: ApprovalDecision): RequestPermissionResponse {
  return decision.outcome === 'selected'
    ? { outcome: { outcome: 'selected', optionId: decision.optionId } }
    : { outcome: { outcome: 'cancelled' } };
}

/** With nobody to ask (a provider driven alone): a reject option, as the agent offers it, else cancelled. */
export function refusalOf(request: RequestPermissionRequest): RequestPermissionResponse {
  const option =
    request.options.find((candidate) => candidate.kind === 'reject_once') ??
    request.options.find((candidate) => candidate.kind === 'reject_always');
  return option ? { outcome: { outcome: 'selected', optionId: option.optionId } } : { outcome: { outcome: 'cancelled' } };
}

function pathsOf(request: RequestPermissionRequest, cwd: string): string[] {
  const named = [
    ...(request.toolCall.locations ?? []).map((location) => location.path),
    ...(request.toolCall.content ?? []).flatMap((block) => (block.type === 'diff' ? [block.path] : [])),
  ];
  const absolute = named.filter((name) => typeof name === 'string' && name !== '').map((name) => path.resolve(cwd, name));
  return [...new Set(absolute)];
}
