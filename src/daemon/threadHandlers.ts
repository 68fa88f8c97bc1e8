import { firstLineOf } from '../protocol/errorMessages';
import { THREAD_STOP_METHOD, threadIdOf } from '../protocol/signals';
import type { HostHandlers } from './hostDispatcher';
import { HostCommandError } from '../protocol/hostErrors';
import type { ProviderRegistry } from './providerRegistry';
import type { AgentProvider, AgentThread } from './providers/agentProvider';
import { startThreadAgent, type ThreadAgentDeps } from './startThreadAgent';
import type { ThreadOpenParams } from '../protocol/threadCommands';
import type { IngestOutcome } from '../ingest/threadIngest';
import { DEFAULT_PERMISSION_MODE, type PermissionMode } from '../protocol/approvals';
import { createApprovalBroker, type ApprovalBroker } from './approvals/approvalBroker';

export interface ThreadHandlerDeps extends ThreadAgentDeps {
  providers: ProviderRegistry;
  /** The host owner's `allowFullAccess` setting: without it `full-access` is refused `mode_not_allowed`. */
  allowFullAccess?: boolean;
}

interface ThreadSession {
  params: ThreadOpenParams;
  /** Undefined when this host does not run the thread's provider: the thread is fed only by the intake. */
  provider?: AgentProvider;
  /** Started by `thread.open` (so extensions run without a prompt); a failed start is retried by the next command. */
  agent?: Promise<AgentThread>;
  /** The thread's questions and its permission mode, kept across agent restarts. */
  approvals: ApprovalBroker;
}

/** The reasons open questions are cancelled with, as the `approval/resolved` row says them. */
const STOPPED_BY_USER = 'stopped by the user';
const DAEMON_CLOSING = 'the host daemon is shutting down';

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
 * Thread commands of the daemon: knows each thread's agent, feeds it prompts and stops, and pushes every
 * frame (from an agent or from the intake) into the one thread-event pipeline behind `ingest`.
 */
export function createThreadHandlers(deps: ThreadHandlerDeps): ThreadHandlers & { dispose(): Promise<void> } {
  const sessions = new Map<string, ThreadSession>();
  const { providerThreadIds } = deps;
  let closing = false;

  const ingestFrame = async (frame: unknown, threadId: string | undefined): Promise<number[]> =>
    seqsOf(await deps.ingest.ingest(frame, threadId));

  const sessionOf = (threadId: string): ThreadSession => {
    const session = sessions.get(threadId);
    if (!session) throw new HostCommandError('thread_not_open', `thread ${threadId} is not open on this host`);
    return session;
  };

  const openSession = (params: ThreadOpenParams): ThreadSession => {
    const { threadId, cwd } = params;
    const approvals = createApprovalBroker({ threadId, cwd, permissionMode: params.permissionMode ?? DEFAULT_PERMISSION_MODE });
    const session = { params, provider: deps.providers.get(params.provider), approvals };
    sessions.set(params.threadId, session);
    providerThreadIds.set(params.threadId, params.resumeProviderThreadId ?? providerThreadIds.get(params.threadId) ?? params.threadId);
    return session;
  };

  // An agent started while closing would outlive dispose() and keep its extensions' timers running.
  const closingRefusal = () => new HostCommandError('host_closing', 'the host daemon is shutting down');

  const requireAllowed = (mode: PermissionMode | undefined) => {
    if (mode === 'full-access' && !deps.allowFullAccess) {
      throw new HostCommandError(
        'mode_not_allowed',
        'this host does not allow full-access threads; its owner turns them on with ATS_ALLOW_FULL_ACCESS=1 (a remote daemon: --allow-full-access 1)',
      );
    }
  };

  const agentOf = (session: ThreadSession, provider: AgentProvider): Promise<AgentThread> => {
    if (closing && !session.agent) return Promise.reject(closingRefusal());
    return (session.agent ??= startThreadAgent(deps, session.params, provider, session.approvals).catch((error: unknown) => {
      session.agent = undefined; // the next command tries again (e.g. after the model was configured)
      throw new HostCommandError('agent_failed', `the ${provider.id} agent could not start: ${firstLineOf(error)}`);
    }));
  };

  return {
    'thread.open': async (params) => {
      if (closing) throw closingRefusal();
      requireAllowed(params.permissionMode);
      // Reading the thread back now closes a turn whose run died with an earlier process (docs/events.md
      // "Restart") at once, rather than when its next frame or status question comes.
      await deps.ingest
        .threadStatus(params.threadId)
        .catch((error: unknown) => deps.log(`thread ${params.threadId}: ${firstLineOf(error)}`));
      const session = sessions.get(params.threadId) ?? openSession(params);
      if (!session.provider) return { providerThreadId: providerThreadIds.get(params.threadId)!, agent: false };
      // Opening starts the agent: its extensions run, and may start turns, before any prompt arrives. A start
      // that fails (unknown model, …) does not fail the open: the thread still takes intake frames, and the
      // next prompt tries again and reports the error to the client that sent it.
      const agent = await agentOf(session, session.provider).catch((error: unknown) => {
        deps.log(`thread ${params.threadId}: ${firstLineOf(error)}`);
        return undefined;
      });
      return { providerThreadId: agent?.providerThreadId ?? providerThreadIds.get(params.threadId)!, agent: true };
    },
    'thread.prompt': async ({ threadId, prompt }) => {
      const session = sessionOf(threadId);
      if (!session.provider) {
        throw new HostCommandError(
          'no_agent_provider',
          `this host has no agent provider "${session.params.provider}"; post events through the intake instead`,
        );
      }
      const agent = await agentOf(session, session.provider);
      const followUp = (await deps.ingest.threadStatus(threadId)) === 'active';
      // The provider brackets the prompt with <id>/prompt/started and …/settled itself (E5).
      await agent.prompt(prompt).catch((error: unknown) => {
        throw new HostCommandError('agent_failed', `the ${session.provider!.id} agent refused the prompt: ${firstLineOf(error)}`);
      });
      return { followUp, providerThreadId: agent.providerThreadId };
    },
    'thread.stop': async ({ threadId }) => {
      // An agent still starting first: the frames of a run its extensions began are held until then, and
      // must reach the pipeline before the stop does, or the stop would find no turn to interrupt.
      const session = sessions.get(threadId);
      const agent = await session?.agent?.catch(() => undefined);
      // Questions first: the agent learns its tool call will not run before it is told to stop, and the
      // `approval/resolved` rows land inside the turn the stop ends.
      session?.approvals.cancelAll(STOPPED_BY_USER);
      // The stop goes into the pipeline before the abort, so the aborted run's agent_end closes the turn as interrupted.
      const seqs = await ingestFrame({ jsonrpc: '2.0', method: THREAD_STOP_METHOD, params: { threadId } }, threadId);
      await agent?.stop();
      return { seqs };
    },
    'thread.ingest': async ({ frame, providerThreadId }) => {
      const threadId = threadIdOf(frame);
      if (providerThreadId && threadId && !providerThreadIds.has(threadId)) providerThreadIds.set(threadId, providerThreadId);
      return { seqs: await ingestFrame(frame, threadId) };
    },
    'thread.status': async ({ threadId }) => {
      const [status, stored] = await Promise.all([deps.ingest.threadStatus(threadId), deps.ingest.pendingApprovalIds(threadId)]);
      // The rows know questions asked anywhere (an intake-fed agent); this daemon's broker knows its own the
      // moment they are asked, before their row is stored. Ids not stored yet are the newest.
      const asked = sessions.get(threadId)?.approvals.pendingApprovalIds() ?? [];
      const agent = sessions.get(threadId)?.agent ? 'running' : 'stopped';
      return { status, agent, pendingApprovalIds: [...new Set([...stored, ...asked])] };
    },
    'thread.keep_running': async () => {
      throw new HostCommandError('thread_busy', 'keeping an agent running is not built yet');
    },
    'thread.close_agent': async () => {
      throw new HostCommandError('thread_busy', 'closing an agent on demand is not built yet');
    },
    'thread.delete': async () => {
      throw new HostCommandError('thread_busy', 'deleting a thread on its host is not built yet');
    },
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
      const agent = await session.agent?.catch(() => undefined);
      await agent?.setPermissionMode?.(permissionMode).catch((error: unknown) => {
        throw new HostCommandError('agent_failed', `the ${session.provider!.id} agent could not switch mode: ${firstLineOf(error)}`);
      });
      session.approvals.permissionMode = permissionMode;
      // An agent started again later (after a failure) opens in the new mode.
      session.params = { ...session.params, permissionMode };
      return { permissionMode };
    },
    async dispose() {
      closing = true;
      for (const session of sessions.values()) session.approvals.cancelAll(DAEMON_CLOSING);
      // Agents still starting are awaited too, so none is left running behind a closed daemon.
      const started = await Promise.allSettled([...sessions.values()].map((session) => session.agent ?? Promise.reject()));
      sessions.clear();
      await Promise.all(started.map((settled) => (settled.status === 'fulfilled' ? settled.value.dispose() : undefined)));
    },
  };
}

/** The ingest's own JSON-RPC error (code, message, zod issue path) travels back unchanged. */
function seqsOf(outcome: IngestOutcome): number[] {
  if (outcome.ok) return outcome.rows.map((row) => row.seq);
  throw new HostCommandError('ingest_rejected', outcome.error.message, outcome.error.data, outcome.error.code);
}
