import { THREAD_EVENT_TYPE } from '../../protocol/threadEvents';
import type { ThreadRecord } from '../../registry/records';
import type { HostDirectory } from '../hosts/hostDirectory';
import type { ForkCut } from './forkCut';
import { forkContextOf } from './forkContext';

/** What the fork's record says of its agent: the session it resumes, or the earlier conversation to tell a fresh one. */
export type ForkedAgent = Pick<ThreadRecord, 'providerThreadId' | 'pendingContext'>;

/**
 * How the fork's agent continues (docs/fork.md): from the agent's own fork of the source's session at the
 * turn's checkpoint where its provider has one (pi), else in a fresh session told the earlier conversation
 * before its first prompt. A turn with no checkpoint of the agent's (its id stands in for one: no answer was
 * written, or the rows came through the intake) and any refusal of the host take the second way. Never rejects.
 */
export async function forkAgentSession(hosts: HostDirectory, source: ThreadRecord, cut: ForkCut, cwd: string): Promise<ForkedAgent> {
  const context = forkContextOf(cut.rows);
  const told: ForkedAgent = context ? { pendingContext: context } : {};
  const end = [...cut.rows].reverse().find((row) => row.type === THREAD_EVENT_TYPE.turnCompleted);
  if (end?.type !== THREAD_EVENT_TYPE.turnCompleted) return told;
  const checkpointId = end.data.providerCheckpointId;
  const providerThreadId = end.data.providerThreadId;
  if (!checkpointId || checkpointId === end.turnId || providerThreadId === source.id) return told;
  const forked = await hosts
    .call(source.hostId, 'thread.fork_session', { provider: source.provider, providerThreadId, checkpointId, cwd })
    .catch(() => ({ providerThreadId: null }));
  return forked.providerThreadId ? { providerThreadId: forked.providerThreadId } : told;
}
