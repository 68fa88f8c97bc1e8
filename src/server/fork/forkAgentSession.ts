import { FORK_SESSION_TIMEOUT_MS } from '../../protocol/hostForkCommands';
import { THREAD_EVENT_TYPE } from '../../protocol/threadEvents';
import type { ThreadRecord } from '../../registry/records';
import type { HostDirectory } from '../hosts/hostDirectory';
import type { ForkCut } from './forkCut';
import { forkContextOf } from './forkContext';

/** What the fork's record says of its agent: the session it resumes, or the earlier conversation to tell a fresh one. */
export type ForkedAgent = Pick<ThreadRecord, 'providerThreadId' | 'pendingContext'>;

/**
 * How the fork's agent continues (docs/fork.md): from the agent's own fork of the source's session where its
 * provider has one (pi: at the turn's checkpoint; an ACP agent's `session/fork`: at the turn's last message,
 * or the whole session when it ended with the turn), else in a fresh session told the earlier conversation before
 * its first prompt. A checkpoint that is only the turn's id (no answer was written, an agent that names no
 * point, rows that came through the intake) names no point of the agent's. Any refusal of the host takes the
 * second way. Never rejects.
 */
export async function forkAgentSession(hosts: HostDirectory, source: ThreadRecord, cut: ForkCut, cwd: string): Promise<ForkedAgent> {
  const context = forkContextOf(cut.rows);
  const told: ForkedAgent = context ? { pendingContext: context } : {};
  const end = [...cut.rows].reverse().find((row) => row.type === THREAD_EVENT_TYPE.turnCompleted);
  if (end?.type !== THREAD_EVENT_TYPE.turnCompleted) return told;
  const { providerThreadId, providerCheckpointId } = end.data;
  if (providerThreadId === source.id) return told;
  const checkpointId = providerCheckpointId && providerCheckpointId !== end.turnId ? providerCheckpointId : null;
  // The session ends at the cut when no turn came after it and the source goes on in that session (a fork's
  // copied turns name its source's session, which may have gone on in the source).
  const atSessionEnd = !cut.turnsAfter && source.providerThreadId === providerThreadId;
  if (checkpointId === null && !atSessionEnd) return told;
  const forked = await hosts
    .call(
      source.hostId,
      'thread.fork_session',
      { provider: source.provider, providerThreadId, checkpointId, atSessionEnd, cwd },
      { timeoutMs: FORK_SESSION_TIMEOUT_MS },
    )
    .catch(() => ({ providerThreadId: null }));
  return forked.providerThreadId ? { providerThreadId: forked.providerThreadId } : told;
}
