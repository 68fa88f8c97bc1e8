import { firstLineOf } from '../protocol/errorMessages';
import { threadIdOf } from '../protocol/signals';
import type { HostHandlers } from './hostDispatcher';
import { HostCommandError } from '../protocol/hostErrors';
import type { ThreadOpenParams } from '../protocol/threadCommands';
import type { IngestOutcome } from '../ingest/threadIngest';
import type { PermissionMode } from '../protocol/approvals';
import type { EventStore } from '../store/eventStore';
import { DEFAULT_TURN_GRACE_MS } from '../ingest/graceTimers';
import type { AllowedRoots } from '../files/allowedRoots';
import { createLifecycleHandlers } from './agentLifecycle/lifecycleHandlers';
import { stopTurn } from './agentLifecycle/stopOpenTurn';
import { agentFailureFrames } from './agentLifecycle/agentFailureFrames';
import {
  AgentStartFailed,
  createThreadSession,
  DAEMON_CLOSING,
  DEFAULT_AGENT_IDLE_MS,
  type ThreadSession,
  type ThreadSessionDeps,
} from './agentLifecycle/threadSession';

export interface ThreadHandlerDeps extends Omit<ThreadSessionDeps, 'agentIdleMs' | 'closing'> {
  /** Where the rows are (a delete names the session of a thread this daemon never opened by its last row). */
  store: EventStore;
  /** The host owner's `allowFullAccess` setting: without it `full-access` is refused `mode_not_allowed`. */
  allowFullAccess?: boolean;
  /** The folders the host's owner allows: a thread whose folder (`cwd`) is outside is refused `root_not_allowed`. */
  allowed?: AllowedRoots;
  /** `ATS_AGENT_IDLE_MS`: an agent with no open turn and no pending question closes after this long. */
  agentIdleMs?: number;
  /** The ingest's turn grace: how long a stop waits for the run's end before the turn closes without it. */
  turnGraceMs?: number;
}

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
 * Thread commands of the daemon: knows each thread's agent, starts it when a prompt needs it (issue 28: not
 * at open, unless the thread keeps its agent running or has a turn to restore), closes it when idle, feeds
 * it prompts and stops, and pushes every frame (from an agent or from the intake) into the one
 * thread-event pipeline behind `ingest`.
 */
export function createThreadHandlers(deps: ThreadHandlerDeps): ThreadHandlers & { dispose(): Promise<void> } {
  const sessions = new Map<string, ThreadSession>();
  const { providerThreadIds } = deps;
  let closing = false;
  const sessionDeps: ThreadSessionDeps = { ...deps, agentIdleMs: deps.agentIdleMs ?? DEFAULT_AGENT_IDLE_MS, closing: () => closing };

  const ingestFrame = async (frame: unknown, threadId: string | undefined): Promise<number[]> => {
    const seqs = seqsOf(await deps.ingest.ingest(frame, threadId));
    if (threadId) sessions.get(threadId)?.idle.touch();
    return seqs;
  };

  const sessionOf = (threadId: string): ThreadSession => {
    const session = sessions.get(threadId);
    if (!session) throw new HostCommandError('thread_not_open', `thread ${threadId} is not open on this host`);
    return session;
  };

  const openSession = (params: ThreadOpenParams): ThreadSession => {
    const session = createThreadSession(sessionDeps, params);
    sessions.set(params.threadId, session);
    providerThreadIds.set(params.threadId, params.resumeProviderThreadId ?? providerThreadIds.get(params.threadId) ?? params.threadId);
    return session;
  };

  const requireAllowed = (mode: PermissionMode | undefined) => {
    if (mode === 'full-access' && !deps.allowFullAccess) {
      throw new HostCommandError(
        'mode_not_allowed',
        'this host does not allow full-access threads; its owner turns them on with ATS_ALLOW_FULL_ACCESS=1 (a remote daemon: --allow-full-access 1)',
      );
    }
  };

  return {
    'thread.open': async (params) => {
      // An agent started while closing would outlive dispose() and keep its extensions' timers running.
      if (closing) throw new HostCommandError('host_closing', DAEMON_CLOSING);
      requireAllowed(params.permissionMode);
      // Its agent runs in that folder: one registered before the owner narrowed the setting is refused now.
      await deps.allowed?.require(params.cwd);
      // Reading the thread back now closes a turn whose run died with an earlier process (docs/events.md
      // "Restart") at once, rather than when its next frame or status question comes; a turn still open
      // after that is one this process runs, and its agent must be there to finish it.
      const status = await deps.ingest.threadStatus(params.threadId).catch((error: unknown) => {
        deps.log(`thread ${params.threadId}: ${firstLineOf(error)}`);
        return 'idle' as const;
      });
      const session = sessions.get(params.threadId) ?? openSession(params);
      if (params.keepAgentRunning !== undefined) session.keepAgentRunning = params.keepAgentRunning;
      if (!session.provider) return { providerThreadId: providerThreadIds.get(params.threadId)!, agent: false };
      if (session.keepAgentRunning || status === 'active') {
        // Started now: its extensions run, and may start turns, before any prompt arrives. A start that fails
        // (unknown model, …) does not fail the open: its row says why, and the next prompt tries again.
        await session.startAgent();
      } else {
        session.idle.touch();
      }
      return { providerThreadId: providerThreadIds.get(params.threadId)!, agent: true };
    },
    'thread.prompt': async ({ threadId, prompt, answerWithinMs }) => {
      const session = sessionOf(threadId);
      const provider = session.provider;
      if (!provider) {
        throw new HostCommandError(
          'no_agent_provider',
          `this host has no agent provider "${session.params.provider}"; post events through the intake instead`,
        );
      }
      const stopped = session.agent.state() !== 'running';
      // Held from the start (or the wait for an idle close to finish) until the prompt is accepted, so no
      // idle close takes the agent away in between.
      const handOver = session.agent
        .hold(async (agent) => {
          const followUp = (await deps.ingest.threadStatus(threadId)) === 'active';
          // The provider brackets the prompt with <id>/prompt/started and …/settled itself (E5).
          await agent.prompt(prompt).catch((error: unknown) => {
            throw new HostCommandError('agent_failed', `the ${provider.id} agent refused the prompt: ${firstLineOf(error)}`);
          });
          return { followUp, providerThreadId: agent.providerThreadId };
        })
        .catch(async (error: unknown) => {
          // No agent to bracket the prompt: the prompt is still the thread's, as a failed turn saying why
          // (issue 29), stored before the refusal is answered.
          if (error instanceof AgentStartFailed) {
            for (const frame of agentFailureFrames(provider.id, threadId, error.reason, prompt)) await deps.ingest.ingest(frame, threadId);
          }
          throw error;
        });
      if (!stopped || answerWithinMs === undefined) return handOver;
      // An agent's start may outlast the server's command timeout (Gemini CLI: 2.5–13 s): past `answerWithinMs`
      // the prompt is answered as taken and goes on; a start that fails then is its failed turn (stored above).
      const early = await answerBy(handOver, answerWithinMs);
      if (early !== undefined) return early;
      void handOver.catch((error: unknown) => deps.log(`thread ${threadId}: ${firstLineOf(error)}`));
      const followUp = (await deps.ingest.threadStatus(threadId)) === 'active';
      return { followUp, providerThreadId: providerThreadIds.get(threadId)!, starting: true };
    },
    'thread.stop': async ({ threadId }) => ({
      seqs: await stopTurn({ ...deps, ingestFrame }, threadId, sessions.get(threadId), STOPPED_BY_USER),
    }),
    'thread.ingest': async ({ frame, providerThreadId }) => {
      const threadId = threadIdOf(frame);
      if (providerThreadId && threadId && !providerThreadIds.has(threadId)) providerThreadIds.set(threadId, providerThreadId);
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
      const session = sessions.get(threadId);
      const asked = session?.approvals.pendingApprovalIds() ?? [];
      return {
        status,
        agent: session?.agent.state() ?? 'stopped',
        pendingApprovalIds: [...new Set([...stored, ...asked])],
        lastTurnStatus,
      };
    },
    ...createLifecycleHandlers({
      ...deps,
      sessions,
      ingestFrame,
      turnEndWaitMs: (deps.turnGraceMs ?? DEFAULT_TURN_GRACE_MS) + 1_000,
    }),
    // A thread not open here asked nothing here: its questions are unknown (a daemon restart forgets them,
    // and the turn they belonged to was closed when the thread was read back).
    'thread.approve': async ({ threadId, approvalId, optionId }) =>
      sessions.get(threadId)?.approvals.answer(approvalId, optionId) ?? { outcome: 'unknown' },
    'thread.configure': async ({ threadId, permissionMode }) => {
      const session = sessionOf(threadId);
      requireAllowed(permissionMode);
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
    },
    async dispose() {
      closing = true;
      for (const session of sessions.values()) {
        session.idle.cancel();
        session.approvals.cancelAll(DAEMON_CLOSING);
      }
      // Agents still starting are awaited too, so none is left running behind a closed daemon.
      await Promise.all([...sessions.values()].map((session) => session.agent.close()));
      sessions.clear();
    },
  };
}

/** The ingest's own JSON-RPC error (code, message, zod issue path) travels back unchanged. */
function seqsOf(outcome: IngestOutcome): number[] {
  if (outcome.ok) return outcome.rows.map((row) => row.seq);
  throw new HostCommandError('ingest_rejected', outcome.error.message, outcome.error.data, outcome.error.code);
}

/** `work`'s outcome when it settles within `ms` (its rejection rethrown), else undefined; it goes on either way. */
async function answerBy<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(resolve, ms, undefined)));
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
