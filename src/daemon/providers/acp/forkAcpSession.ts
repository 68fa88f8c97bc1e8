import { z } from 'zod';
import { DEFAULT_PERMISSION_MODE } from '../../../protocol/approvals';
import { FORK_SESSION_TIMEOUT_MS } from '../../../protocol/hostForkCommands';
import type { ForkSessionRequest } from '../agentProvider';
import type { AcpAgentSpec } from './acpAgentSpecs';
import { withBriefAgent } from './briefAgent';
import { canForkSessions, initializeAgent } from './initializeAgent';
import type { AcpSdk } from './loadAcpSdk';

/**
 * How long a fork waits for its agent (its start, `initialize` and `session/fork`, which also starts the new
 * session: Claude Code's adapter starts a Claude Code for it) before it gives up: below FORK_SESSION_TIMEOUT_MS,
 * the server's wait for `thread.fork_session`, so the host answers the fork itself.
 */
export const DEFAULT_FORK_TIMEOUT_MS = FORK_SESSION_TIMEOUT_MS - 5_000;

/** ACP's unstable `session/fork`, not among the stable SDK's method names. */
const SESSION_FORK = 'session/fork';
const ForkAnswerSchema = z.looseObject({ sessionId: z.string().min(1) });

export interface BriefAgentFork {
  sdk: AcpSdk;
  executable: string;
  args: readonly string[];
  env: NodeJS.ProcessEnv;
  /** The folder the new session is told it works in (the source's). */
  cwd: string;
  sessionId: string;
  /** `_meta` of the request: the fork point (AcpAgentSpec.forkPointMeta) and what the agent wants of a new session. */
  meta?: Record<string, unknown> | undefined;
  timeoutMs: number;
}

/** What a fork came to: the new session, or none because the agent offers no `session/fork`. */
export type AcpForkOutcome = { offered: true; sessionId: string } | { offered: false };

/**
 * Forks a session of an ACP agent that is not running for it: starts the agent as a thread's agent would be,
 * `initialize`, then `session/fork` when it advertises it, and closes it with its whole process group. The
 * agents that offer it copy the session from what they keep on disk (Claude Code's transcript, Codex's rollout),
 * so the source's own agent, running or not, is left alone and its session is only read. Gives up after
 * `timeoutMs`; the agent is closed whatever happened.
 */
export async function forkWithBriefAgent(request: BriefAgentFork): Promise<AcpForkOutcome> {
  const { sdk } = request;
  return withBriefAgent({ ...request, what: 'fork the session' }, async (agent): Promise<AcpForkOutcome> => {
    const init = await initializeAgent(sdk, agent.connection);
    if (!canForkSessions(init)) return { offered: false };
    const answer = await agent.connection.agent.request(SESSION_FORK, {
      sessionId: request.sessionId,
      cwd: request.cwd,
      mcpServers: [],
      ...(request.meta ? { _meta: request.meta } : {}),
    });
    const parsed = ForkAnswerSchema.safeParse(answer);
    if (!parsed.success) throw new Error('the agent answered session/fork without a session id');
    return { offered: true, sessionId: parsed.data.sessionId };
  });
}

/**
 * Where an ACP agent can fork a session for the end of a turn, as the `_meta` of its `session/fork`: at the
 * turn's last agent message (its checkpoint) for an agent that takes a fork point, else the whole session when
 * no turn came after; null when neither holds (a middle turn of an agent that forks only whole). The new
 * session is opened in a thread's default mode: it runs nothing before the fork's thread resumes it in its own.
 */
export function acpForkPlan(spec: AcpAgentSpec, request: ForkSessionRequest): { meta: Record<string, unknown> | undefined } | null {
  const opening = spec.sessionMeta?.(DEFAULT_PERMISSION_MODE);
  if (request.checkpointId !== null && spec.forkPointMeta) return { meta: { ...opening, ...spec.forkPointMeta(request.checkpointId) } };
  if (request.atSessionEnd) return { meta: opening };
  return null;
}
