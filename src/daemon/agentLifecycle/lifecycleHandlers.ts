import type { HostHandlers } from '../hostDispatcher';
import { HostCommandError } from '../../protocol/hostErrors';
import { storedProviderThreadId } from '../../store/storedProviderThreadId';
import { deleteSessionThroughAgent } from './deleteSessionThroughAgent';
import { removeProviderSession, type RemoveSessionDeps } from './removeProviderSession';
import { stopOpenTurn, type StopTurnDeps } from './stopOpenTurn';
import type { ThreadSession } from './threadSession';
import type { ThreadTable } from './threadTable';

export interface LifecycleDeps extends StopTurnDeps, RemoveSessionDeps {
  table: ThreadTable;
  /** How long a close waits for a stopped turn's end before going on (the turn grace, and a margin). */
  turnEndWaitMs: number;
}

/** The reasons open questions are cancelled with, as the `approval/resolved` row says them. */
const AGENT_CLOSED = 'the thread was put away';
const THREAD_DELETED = 'the thread was deleted';

type LifecycleHandlers = Pick<HostHandlers, 'thread.keep_running' | 'thread.close_agent' | 'thread.delete'>;

/**
 * The commands that end an agent or a thread on its host (issue 28): keep an agent running regardless of
 * idleness, close it now (an archive), forget the thread and its session files (a delete). All idempotent.
 */
export function createLifecycleHandlers(deps: LifecycleDeps): LifecycleHandlers {
  /**
   * Stops an open turn (stored before this answers) and disposes the agent; the thread stays open. `beforeClose`
   * runs between the two, with the agent still there.
   */
  const closeAgent = async (threadId: string, reason: string, beforeClose?: (session: ThreadSession | undefined) => Promise<void>) => {
    const session = deps.table.session(threadId);
    const seqs = await stopOpenTurn(deps, threadId, session, reason);
    session?.idle.cancel();
    await beforeClose?.(session);
    await session?.agent.close(new Error(reason));
    return seqs;
  };

  return {
    'thread.keep_running': async ({ threadId, keepAgentRunning }) => {
      const session = deps.table.session(threadId);
      // Nothing runs for a thread this host has not opened: turning keep-running off there is already true.
      if (!session && !keepAgentRunning) return { agent: 'stopped' };
      if (!session) throw new HostCommandError('thread_not_open', `thread ${threadId} is not open on this host`);
      session.keepAgentRunning = keepAgentRunning;
      if (!keepAgentRunning) {
        session.idle.touch(); // the idle count starts from now
        return { agent: session.agent.state() };
      }
      session.idle.cancel();
      // A start that fails is the thread's `provider/error` row (startAgent); the answer says stopped.
      if (session.provider) await session.startAgent();
      return { agent: session.agent.state() };
    },
    'thread.close_agent': async ({ threadId }) => ({ seqs: await closeAgent(threadId, AGENT_CLOSED) }),
    'thread.delete': async ({ threadId, ...named }) => {
      const session = deps.table.session(threadId);
      // Named before the stop: closing a turn of an earlier process may store rows that name no session.
      const providerThreadId =
        deps.table.record(threadId)?.providerThreadId ?? named.providerThreadId ?? (await storedProviderThreadId(deps.store, threadId));
      const provider = session?.provider ?? (named.provider === undefined ? undefined : deps.providers.get(named.provider));
      // A running agent that deletes its own session does so before it closes; the others' go after the close.
      let deletedByAgent = false;
      const seqs = await closeAgent(threadId, THREAD_DELETED, async (open) => {
        deletedByAgent = await deleteSessionThroughAgent(open, threadId, deps.log);
      });
      // Forgotten before the files go: a later prompt is refused (thread_not_open) instead of starting again, and
      // an agent a prompt was starting meanwhile is cut short and ended.
      await deps.table.forget(threadId, new Error(THREAD_DELETED));
      if (!provider && named.provider !== undefined) {
        // Not every provider is asked for a session of one this host no longer offers: an ACP agent would be
        // started for each, only to find nothing.
        deps.log(`thread ${threadId}: this host offers no ${named.provider} agent now, so its session stays where that agent keeps it`);
      } else if (!deletedByAgent) {
        await removeProviderSession(deps, threadId, {
          ...(provider ? { provider } : {}),
          ...(providerThreadId === undefined ? {} : { providerThreadId }),
          ...(session ? { cwd: session.params.cwd } : {}),
        });
      }
      return { seqs };
    },
  };
}
