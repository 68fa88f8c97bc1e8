import { PermissionModeSchema } from '../../protocol/approvals';
import type { ThreadOpenResult } from '../../protocol/hostContract';
import type { Registry } from '../../registry/registry';
import type { ThreadRecord } from '../../registry/records';
import type { HostDirectory } from '../hosts/hostDirectory';
import type { EventHub } from '../sse/eventHub';
import { mustGet } from '../http/lookups';

export interface ThreadOnHostDeps {
  registry: Registry;
  hosts: HostDirectory;
  /** The server's command timeout: a prompt asks its host to answer well within it (`answerWithinMs`). */
  config?: { hostCommandTimeoutMs: number };
  /** Where a prompt answered while its agent was starting learns the session from the turn's rows. */
  hub?: EventHub;
}

/**
 * Opens a thread on its host. Idempotent and cheap: the host records the thread and starts its agent only
 * when a prompt needs it (on the session named by `resumeProviderThreadId`), or now for a thread that keeps
 * its agent running (`keepAgentRunning`: its extensions run without a prompt) or has a turn to restore.
 */
export async function openThreadOnHost(deps: ThreadOnHostDeps, thread: ThreadRecord): Promise<ThreadOpenResult> {
  const environment = await mustGet(deps.registry.environments, thread.environmentId, 'environment');
  return deps.hosts.call(thread.hostId, 'thread.open', {
    threadId: thread.id,
    cwd: environment.path,
    provider: thread.provider,
    model: thread.model,
    permissionMode: PermissionModeSchema.optional().catch(undefined).parse(thread.permissionMode),
    resumeProviderThreadId: thread.providerThreadId,
    // An archived thread has no agent, whatever it kept before.
    keepAgentRunning: (thread.keepAgentRunning ?? false) && !thread.archived,
  });
}

/**
 * The record keeps the providerThreadId the host last named (the agent's session id), so the next open
 * resumes that session; it changes only when the host had to start a new one.
 */
export async function keepProviderThreadId(registry: Registry, thread: ThreadRecord, providerThreadId: string): Promise<ThreadRecord> {
  if (thread.providerThreadId === providerThreadId) return thread;
  // Read again: `thread` may be a snapshot from before a background re-open or a prompt changed the record.
  const current = (await registry.threads.get(thread.id)) ?? thread;
  if (current.providerThreadId === providerThreadId) return current;
  return registry.threads.put({ ...current, providerThreadId });
}
