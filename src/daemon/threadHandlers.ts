import path from 'node:path';
import { THREAD_STOP_METHOD } from '../protocol/signals';
import type { HostHandlers } from './hostDispatcher';
import { HostCommandRefused } from './hostErrors';
import type { ProviderRegistry } from './providerRegistry';
import type { AgentProvider, AgentThread } from './providers/agentProvider';
import type { ThreadOpenParams } from './threadCommands';
import type { IngestOutcome, ThreadIngest } from '../ingest/threadIngest';

export interface ThreadHandlerDeps {
  ingest: ThreadIngest;
  providers: ProviderRegistry;
  /** Providers keep their sessions under `<dataDir>/providers/<id>`. */
  dataDir: string;
  /**
   * threadId → providerThreadId, shared with the ingest (its `providerThreadIdFor`). Filled when a thread
   * opens or its agent starts, and from the server's hint on `thread.ingest` for threads not opened here.
   */
  providerThreadIds: Map<string, string>;
  /** threadId → its running agent, shared with the ingest (context window of the model). */
  agents: Map<string, AgentThread>;
  log(message: string): void;
}

interface ThreadSession {
  params: ThreadOpenParams;
  provider?: AgentProvider;
  /** Started by the first prompt, so a thread fed only by the intake never starts an agent. */
  agent?: Promise<AgentThread>;
}

type ThreadHandlers = Pick<HostHandlers, 'thread.open' | 'thread.prompt' | 'thread.stop' | 'thread.ingest' | 'thread.status'>;

/**
 * Thread commands of the daemon: knows each thread's agent, feeds it prompts and stops, and pushes every
 * frame (from an agent or from the intake) into the one thread-event pipeline behind `ingest`.
 */
export function createThreadHandlers(deps: ThreadHandlerDeps): ThreadHandlers & { dispose(): Promise<void> } {
  const sessions = new Map<string, ThreadSession>();
  const { providerThreadIds, agents } = deps;

  const ingestFrame = async (frame: unknown): Promise<number[]> => seqsOf(await deps.ingest.ingest(frame));

  const sessionOf = (threadId: string): ThreadSession => {
    const session = sessions.get(threadId);
    if (!session) throw new HostCommandRefused('thread_not_open', `thread ${threadId} is not open on this host`);
    return session;
  };

  const agentOf = (session: ThreadSession, provider: AgentProvider): Promise<AgentThread> =>
    (session.agent ??= startAgent(session.params, provider).then(
      (agent) => {
        providerThreadIds.set(session.params.threadId, agent.providerThreadId);
        agents.set(session.params.threadId, agent);
        return agent;
      },
      (error: unknown) => {
        session.agent = undefined; // the next prompt tries again (e.g. after the model was configured)
        throw new HostCommandRefused('agent_failed', `the ${provider.id} agent could not start: ${messageOf(error)}`);
      },
    ));

  const startAgent = (params: ThreadOpenParams, provider: AgentProvider): Promise<AgentThread> =>
    provider.openThread({
      threadId: params.threadId,
      cwd: params.cwd,
      model: params.model,
      permissionMode: params.permissionMode,
      dataDir: path.join(deps.dataDir, 'providers', provider.id),
      resumeProviderThreadId: providerThreadIds.get(params.threadId) === params.threadId ? undefined : providerThreadIds.get(params.threadId),
      // Agent frames are fire-and-forget for the agent; a rejected frame is logged, never thrown into the SDK.
      emit: (frame) => {
        deps.ingest.ingest(frame).then(
          (outcome) => outcome.ok || deps.log(`agent frame rejected for ${params.threadId}: ${outcome.error.message}`),
          (error: unknown) => deps.log(`agent frame failed for ${params.threadId}: ${String(error)}`),
        );
      },
    });

  return {
    'thread.open': async (params) => {
      const existing = sessions.get(params.threadId);
      const session = existing ?? { params, provider: deps.providers.get(params.provider) };
      if (!existing) {
        sessions.set(params.threadId, session);
        const known = params.resumeProviderThreadId ?? providerThreadIds.get(params.threadId) ?? params.threadId;
        providerThreadIds.set(params.threadId, known);
      }
      return { providerThreadId: providerThreadIds.get(params.threadId)!, agent: session.provider !== undefined };
    },
    'thread.prompt': async ({ threadId, prompt }) => {
      const session = sessionOf(threadId);
      if (!session.provider) {
        throw new HostCommandRefused('no_agent_provider', `this host has no agent provider "${session.params.provider}"; post events through the intake instead`);
      }
      const agent = await agentOf(session, session.provider);
      const followUp = (await deps.ingest.threadStatus(threadId)) === 'active';
      // The provider brackets the prompt with <id>/prompt/started and …/settled itself (E5).
      await agent.prompt(prompt).catch((error: unknown) => {
        throw new HostCommandRefused('agent_failed', `the ${session.provider!.id} agent refused the prompt: ${messageOf(error)}`);
      });
      return { followUp, providerThreadId: agent.providerThreadId };
    },
    'thread.stop': async ({ threadId }) => {
      // The stop goes into the pipeline first, so the aborted run's agent_end closes the turn as interrupted.
      const seqs = await ingestFrame({ jsonrpc: '2.0', method: THREAD_STOP_METHOD, params: { threadId } });
      const agent = await sessions.get(threadId)?.agent?.catch(() => undefined);
      await agent?.stop();
      return { seqs };
    },
    'thread.ingest': async ({ frame, providerThreadId }) => {
      const threadId = threadIdOf(frame);
      if (providerThreadId && threadId && !providerThreadIds.has(threadId)) providerThreadIds.set(threadId, providerThreadId);
      return { seqs: await ingestFrame(frame) };
    },
    'thread.status': async ({ threadId }) => ({ status: await deps.ingest.threadStatus(threadId) }),
    async dispose() {
      const started = await Promise.allSettled([...sessions.values()].map((session) => session.agent ?? Promise.reject()));
      sessions.clear();
      await Promise.all(started.map((settled) => (settled.status === 'fulfilled' ? settled.value.dispose() : undefined)));
    },
  };
}

/** Agent errors are configuration problems a user must see (no API key, unknown model); stacks stay out. */
function messageOf(error: unknown): string {
  return error instanceof Error ? error.message.split('\n')[0]! : String(error);
}

function threadIdOf(frame: unknown): string | undefined {
  const params = typeof frame === 'object' && frame !== null ? (frame as { params?: { threadId?: unknown } }).params : undefined;
  return typeof params?.threadId === 'string' ? params.threadId : undefined;
}

/** The ingest's own JSON-RPC error (code, message, zod issue path) travels back unchanged. */
function seqsOf(outcome: IngestOutcome): number[] {
  if (outcome.ok) return outcome.rows.map((row) => row.seq);
  throw new HostCommandRefused('ingest_rejected', outcome.error.message, outcome.error.data, outcome.error.code);
}
