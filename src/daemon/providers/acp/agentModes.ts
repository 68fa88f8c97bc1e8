import type { ClientConnection, SessionModeState } from '@agentclientprotocol/sdk';
import type { PermissionMode } from '../../../protocol/approvals';
import { acpErrorReason } from './explainAcpError';
import type { AcpSdk } from './loadAcpSdk';

/**
 * The agents' own session modes for each thread mode, best first; the first the agent offers is taken. The
 * agent's mode decides what it asks about, the daemon's policy then answers or waits for the user:
 * - Claude Code: `default` asks before any change, `acceptEdits` edits without asking, `bypassPermissions`
 *   never asks (not offered to root), else `auto` (Claude decides).
 * - Codex: `read-only` and `workspace-write` ask before leaving the sandbox, `agent-full-access` never asks.
 *   Never its default `agent`, whose model-based reviewer denies commands when it cannot reach its model.
 * - Gemini CLI: `default`, `autoEdit`, `yolo`.
 */
export const AGENT_MODE_IDS: Readonly<Record<PermissionMode, readonly string[]>> = {
  ask: ['default', 'read-only'],
  'accept-edits': ['acceptEdits', 'workspace-write', 'autoEdit'],
  'full-access': ['bypassPermissions', 'auto', 'agent-full-access', 'yolo'],
};

/** The agent's mode id for a thread mode, or undefined when the agent offers none that matches. */
export function agentModeIdFor(mode: PermissionMode, modes: SessionModeState | null | undefined): string | undefined {
  const offered = new Set((modes?.availableModes ?? []).map((entry) => entry.id));
  return AGENT_MODE_IDS[mode].find((id) => offered.has(id));
}

/** The thread modes stricter than each, strictest last: where a refused mode falls back. */
const STRICTER: Readonly<Record<PermissionMode, readonly PermissionMode[]>> = {
  ask: [],
  'accept-edits': ['ask'],
  'full-access': ['accept-edits', 'ask'],
};

/**
 * Switches the agent's session to the thread mode (`session/set_mode`) when it offers a matching mode; an agent
 * without one keeps its own, which the log says. Sent even when the agent reports that mode already: the agent
 * may have switched itself since (Claude Code leaving `plan`). A mode the agent refuses (Gemini CLI refuses
 * `autoEdit` and `yolo` in a folder it does not trust) falls back to the mode of a stricter thread mode: the
 * agent then asks more, and the daemon answers by the thread's mode, so the user sees the same; an agent that
 * refuses even that fails with its reason.
 */
export async function applyAgentMode(
  sdk: AcpSdk,
  connection: ClientConnection,
  session: { sessionId: string; modes: SessionModeState | null | undefined },
  mode: PermissionMode,
  log: (message: string) => void,
): Promise<void> {
  const modeId = agentModeIdFor(mode, session.modes);
  if (modeId === undefined) {
    const own = session.modes?.currentModeId;
    return log(`the agent offers no mode for "${mode}"; it keeps its own${own ? ` (${own})` : ''}`);
  }
  const setMode = (id: string) => connection.agent.request(sdk.methods.agent.session.setMode, { sessionId: session.sessionId, modeId: id });
  let refusal: unknown;
  try {
    return void (await setMode(modeId));
  } catch (error) {
    refusal = error;
  }
  for (const stricter of STRICTER[mode]) {
    const fallback = agentModeIdFor(stricter, session.modes);
    if (fallback === undefined || fallback === modeId) continue;
    try {
      await setMode(fallback);
    } catch {
      continue;
    }
    return log(
      `the agent refused its mode "${modeId}" for "${mode}" (${acpErrorReason(refusal)}); it runs in "${fallback}" (the mode for "${stricter}"), and the daemon answers what it asks by "${mode}"`,
    );
  }
  throw refusal;
}
