import type { ThreadRecord } from '../../registry/records';
import type { HostDirectory } from '../hosts/hostDirectory';
import { mustGet } from '../http/lookups';
import { Problem } from '../http/problem';
import { keepProviderThreadId, openThreadOnHost, type ThreadOnHostDeps } from './openThreadOnHost';
import { sessionOfNextTurn } from './sessionOfNextTurn';
import { changeThread } from './threadChanges';
import { readyForPrompt } from '../workspaces/worktreeLifecycle';

/** The host's refusal when the thread's agent cannot start or refuses a prompt (docs/api.md). */
export const AGENT_FAILED = 'agent_failed';

/** Fails fast, before anything is stored or sent, when the host cannot run that agent (see docs/api.md). */
export async function requireAgent(hosts: HostDirectory, hostId: string, provider: string): Promise<void> {
  const host = await hosts.get(hostId);
  if (host && !host.providers.includes(provider)) {
    throw new Problem(
      409,
      'no_agent_provider',
      `host ${hostId} has no agent provider "${provider}" (it has: ${host.providers.join(', ') || 'none'}); stream events through the intake instead`,
    );
  }
}

/** An archived thread takes no prompt (docs/api.md): 409 `thread_archived`. */
export function refuseArchived(thread: ThreadRecord): void {
  if (thread.archived) throw new Problem(409, 'thread_archived', `thread ${thread.id} is archived: unarchive it to prompt it`);
}

/**
 * `POST /threads/:id/messages`: not archived, and the agent must be one the host runs; the thread is opened
 * first (idempotent and cheap: a host opens at its hello only the threads that need an agent then), then
 * prompted, which starts its agent when it is stopped. `followUp` when a turn was running. As the thread's
 * only owner until the host took the prompt (threadChanges.ts): an archive waits for the prompt it follows,
 * and a prompt that follows an archive is refused, so an archived thread never gets an agent from a prompt.
 */
export function promptThread(deps: ThreadOnHostDeps, threadId: string, text: string): Promise<{ followUp: boolean }> {
  return changeThread(deps.registry, threadId, async (thread) => {
    refuseArchived(thread);
    await requireAgent(deps.hosts, thread.hostId, thread.provider);
    // A worktree thread's worktree first (issue 38): waited for while being made, brought back when removed.
    const ready = await readyForPrompt({ ...deps, open: (opening) => openThreadOnHost(deps, opening) }, thread);
    await openThreadOnHost(deps, ready);
    const { followUp } = await promptOpenThread(deps, ready, text);
    return { followUp };
  });
}

/**
 * Prompts a thread its host has open; the caller owns the thread (threadChanges.ts). A prompt restarts an agent that failed to start before; the record
 * keeps whichever session runs (the prompt's answer names it, or the turn's rows when the agent was still
 * starting at the answer), and the agent's failure until a prompt runs (`agentError`), so a client reading the
 * thread sees why it is idle.
 */
export async function promptOpenThread(
  deps: ThreadOnHostDeps,
  thread: ThreadRecord,
  text: string,
): Promise<{ thread: ThreadRecord; followUp: boolean }> {
  // Half the command timeout: a host whose agent is still starting then answers, rather than the caller a 504.
  const answerWithinMs = deps.config && Math.max(1, Math.floor(deps.config.hostCommandTimeoutMs / 2));
  const session = deps.hub && sessionOfNextTurn(deps.hub, thread.id);
  // A fork's earlier conversation, for an agent that starts it in a fresh session (docs/fork.md): once, first.
  const prompt = thread.pendingContext ? `${thread.pendingContext}${text}` : text;
  const result = await deps.hosts
    .call(thread.hostId, 'thread.prompt', { threadId: thread.id, prompt, ...(answerWithinMs ? { answerWithinMs } : {}) })
    .catch(async (error: unknown) => {
      session?.stop();
      if (error instanceof Problem && error.code === AGENT_FAILED) {
        await keepAgentError(deps, thread.id, { code: error.code, message: error.detail, at: new Date().toISOString() });
      }
      throw error;
    });
  if (thread.pendingContext) thread = await dropPendingContext(deps, thread.id);
  if (result.starting) {
    // The turn's rows name the session; a start that fails is that turn's failure, not the record's agentError.
    session?.keepOnRecord(deps.registry, thread);
    return { thread, followUp: result.followUp };
  }
  session?.stop();
  const kept = await keepProviderThreadId(deps.registry, thread, result.providerThreadId);
  return { thread: kept.agentError ? await keepAgentError(deps, kept.id, undefined) : kept, followUp: result.followUp };
}

/** Keeps (or, with undefined, clears) why the thread's agent last failed, on the record a client reads; the caller owns the thread. */
export async function keepAgentError(
  deps: ThreadOnHostDeps,
  threadId: string,
  agentError: ThreadRecord['agentError'],
): Promise<ThreadRecord> {
  // Read again: the prompt may have kept a new session on the record.
  const { agentError: _previous, ...current } = await mustGet(deps.registry.threads, threadId, 'thread');
  return deps.registry.threads.put(agentError ? { ...current, agentError } : current);
}

/** The host took the prompt that carried the thread's pending context: it is not sent again. */
async function dropPendingContext(deps: ThreadOnHostDeps, threadId: string): Promise<ThreadRecord> {
  const { pendingContext: _sent, ...current } = await mustGet(deps.registry.threads, threadId, 'thread');
  return deps.registry.threads.put(current);
}
