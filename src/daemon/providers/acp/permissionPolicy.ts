import type { RequestPermissionRequest, RequestPermissionResponse } from '@agentclientprotocol/sdk';

/**
 * The permission modes an ACP thread can run in today. `accept-edits` (every provider's default) lets the agent
 * edit files by policy; anything else it asks about would need the user's answer, and approvals are not built
 * yet, so it is refused (the agent is told no and goes on). `ask` and `full-access` come with approvals.
 */
export const ACP_PERMISSION_MODES = ['accept-edits'] as const;

const EDIT_KINDS: ReadonlySet<string> = new Set(['edit', 'delete', 'move']);

export function checkPermissionMode(mode: string | undefined): void {
  if (mode === undefined || (ACP_PERMISSION_MODES as readonly string[]).includes(mode)) return;
  throw new Error(
    `permission mode "${mode}" is not supported by ACP agents yet (supported: ${ACP_PERMISSION_MODES.join(', ')}); ` +
      'asking the user needs approvals, which come later',
  );
}

/**
 * The policy's answer to `session/request_permission`, chosen by each option's `kind` (option ids differ by
 * agent: Claude `allow-once`, Codex `allow_once`, Gemini `proceed_once`), and why, for the daemon's log.
 */
export function answerByPolicy(request: RequestPermissionRequest): { response: RequestPermissionResponse; reason: string } {
  const kind = request.toolCall.kind ?? undefined;
  const allowed = kind !== undefined && EDIT_KINDS.has(kind);
  const option =
    request.options.find((candidate) => candidate.kind === (allowed ? 'allow_once' : 'reject_once')) ??
    request.options.find((candidate) => candidate.kind === (allowed ? 'allow_always' : 'reject_always'));
  const what = request.toolCall.title ?? kind ?? 'a tool call';
  if (!option)
    return { response: { outcome: { outcome: 'cancelled' } }, reason: `no ${allowed ? 'allow' : 'reject'} option for ${what}: cancelled` };
  return {
    response: { outcome: { outcome: 'selected', optionId: option.optionId } },
    reason: allowed
      ? `allowed ${what} (accept-edits allows edits)`
      : `refused ${what}: accept-edits allows only edits without asking, and approvals are not built yet`,
  };
}
