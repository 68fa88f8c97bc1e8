import { firstLineOf } from '../protocol/errorMessages';
import { threadIdOf } from '../protocol/signals';
import type { HostHandlers } from './hostDispatcher';
import { HostCommandError } from '../protocol/hostErrors';
import { DEFAULT_TURN_GRACE_MS } from '../ingest/graceTimers';
import { createLifecycleHandlers } from './agentLifecycle/lifecycleHandlers';
import { stopTurn } from './agentLifecycle/stopOpenTurn';
import { DAEMON_CLOSING } from './agentLifecycle/threadSession';
import { promptHandler } from './promptHandler';
import { createThreadContext, type ThreadContext, type ThreadHandlerDeps } from './threadContext';

export type { ThreadHandlerDeps } from './threadContext';

/** The reasons open questions are cancelled with, as the `approval/resolved` row says them. */
const STOPPED_BY_USER = 'stopped by the user';

type ThreadHandlers = Pick<
  HostHandlers,
  | 'thread.open'
  | 'thread.prompt'
  | 'thread.stop'
  | 'thread.ingest'
  | 'thread.status'
  | 'thread.approve'
  | 'thread.configure'
  | 'thread.keep_running'
  | 'thread.close_agent'
  | 'thread.delete'
>;

/**
 * Thread commands of the daemon, over its one record per thread (`ThreadTable`): starts a thread's agent when a
 * prompt needs it (issue 28: not at open, unless the thread keeps its agent running or has a turn to restore),
 * closes it when idle, feeds it prompts and stops, and pushes every frame (from an agent or from the intake) into
 * the one thread-event pipeline behind `ingest`.
 */
export function createThreadHandlers(deps: ThreadHandlerDeps): ThreadHandlers & { dispose(): Promise<void> } {
  const context = createThreadContext(deps);
  const { table, ingestFrame } = context;
  return {
    'thread.open': openHandler(context),
    'thread.prompt': promptHandler(context),
    'thread.stop': async ({ threadId }) => ({
      seqs: await stopTurn({ ...deps, ingestFrame }, threadId, table.session(threadId), STOPPED_BY_USER),
    }),
    'thread.ingest': async ({ frame, providerThreadId }) => {
      const threadId = threadIdOf(frame);
      // The server's hint for a thread not opened here (intake-only): its rows name that session.
      if (providerThreadId && threadId && !table.record(threadId)) table.recordOf(threadId).providerThreadId = providerThreadId;
      return { seqs: await ingestFrame(frame, threadId) };
    },
    'thread.status': async ({ threadId }) => {
      const [status, stored, lastTurnStatus] = await Promise.all([
        deps.ingest.threadStatus(threadId),
        deps.ingest.pendingApprovalIds(threadId),
        deps.ingest.lastTurnStatus(threadId),
      ]);
      // The rows know questions asked anywhere (an intake-fed agent); this daemon's broker knows its own the
      // moment they are asked, before their row is stored. Ids not stored yet are the newest.
      const session = table.session(threadId);
      const asked = session?.approvals.pendingApprovalIds() ?? [];
      return {
        status,
        agent: session?.agent.state() ?? 'stopped',
        pendingApprovalIds: [...new Set([...stored, ...asked])],
        lastTurnStatus,
      };
    },
    ...createLifecycleHandlers({ ...deps, ingestFrame, turnEndWaitMs: (deps.turnGraceMs ?? DEFAULT_TURN_GRACE_MS) + 1_000 }),
    // A thread not open here asked nothing here: its questions are unknown (a daemon restart forgets them,
    // and the turn they belonged to was closed when the thread was read back).
    'thread.approve': async ({ threadId, approvalId, optionId }) =>
      table.session(threadId)?.approvals.answer(approvalId, optionId) ?? { outcome: 'unknown' },
    'thread.configure': configureHandler(context),
    dispose: () => table.closeAll(DAEMON_CLOSING),
  };
}

function openHandler(context: ThreadContext): HostHandlers['thread.open'] {
  const { deps, table } = context;
  return async (params) => {
    // An agent started while closing would outlive dispose() and keep its extensions' timers running.
    if (table.closing()) throw new HostCommandError('host_closing', DAEMON_CLOSING);
    context.requireAllowed(params.permissionMode);
    // Its agent runs in that folder: one registered before the owner narrowed the setting is refused now.
    await deps.allowed?.require(params.cwd);
    // Reading the thread back now closes a turn whose run died with an earlier process (docs/events.md
    // "Restart") at once, rather than when its next frame or status question comes; a turn still open
    // after that is one this process runs, and its agent must be there to finish it.
    const status = await deps.ingest.threadStatus(params.threadId).catch((error: unknown) => {
      deps.log(`thread ${params.threadId}: ${firstLineOf(error)}`);
      return 'idle' as const;
    });
    const session = context.openSession(params);
    if (params.keepAgentRunning !== undefined) session.keepAgentRunning = params.keepAgentRunning;
    const providerThreadId = () => table.lookups.providerThreadIdFor(params.threadId);
    if (!session.provider) return { providerThreadId: providerThreadId(), agent: false };
    if (session.keepAgentRunning || status === 'active') {
      // Started now: its extensions run, and may start turns, before any prompt arrives. A start that fails
      // (unknown model, …) does not fail the open: its row says why, and the next prompt tries again.
      await session.startAgent();
    } else {
      session.idle.touch();
    }
    return { providerThreadId: providerThreadId(), agent: true };
  };
}

function configureHandler(context: ThreadContext): HostHandlers['thread.configure'] {
  const { deps } = context;
  return async ({ threadId, permissionMode }) => {
    const session = context.sessionOf(threadId);
    context.requireAllowed(permissionMode);
    if ((await deps.ingest.threadStatus(threadId)) === 'active') {
      throw new HostCommandError('thread_busy', `thread ${threadId} is running a turn: change its permission mode once the turn ends`);
    }
    // The agent's own mode first: when it refuses, nothing changed and the caller keeps the old mode.
    const agent = await session.agent.current();
    await agent?.setPermissionMode?.(permissionMode).catch((error: unknown) => {
      throw new HostCommandError('agent_failed', `the ${session.provider!.id} agent could not switch mode: ${firstLineOf(error)}`);
    });
    session.approvals.permissionMode = permissionMode;
    // An agent started later (on demand, after an idle close or a failure) opens in the new mode.
    session.params = { ...session.params, permissionMode };
    return { permissionMode };
  };
}
