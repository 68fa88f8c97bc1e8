import type { PermissionMode } from '../../protocol/approvals';
import { newId } from '../../protocol/ids';
import type { ThreadRecord } from '../../registry/records';
import { mustGet } from '../http/lookups';
import { Problem } from '../http/problem';
import { openThreadOnHost, type ThreadOnHostDeps } from './openThreadOnHost';
import { AGENT_FAILED, promptOpenThread, requireAgent } from './promptThread';

/** What a thread is made from (`POST /threads`, docs/api.md). */
export interface NewThread {
  projectId: string;
  /** Defaults to the project's own environment. */
  environmentId?: string | undefined;
  provider: string;
  model: string;
  title: string;
  /** The first prompt, run once the thread is stored. */
  prompt?: string | undefined;
  /** Absent: the host's default, `accept-edits`. */
  permissionMode?: PermissionMode | undefined;
}

/**
 * Stores a thread in its project's (or the given) environment, opens it on the host and runs its first
 * prompt. Checks the host runs the agent before anything is stored when there is a prompt to run.
 */
export async function createThread(deps: ThreadOnHostDeps, request: NewThread): Promise<ThreadRecord> {
  const project = await mustGet(deps.registry.projects, request.projectId, 'project');
  const environment = await mustGet(deps.registry.environments, request.environmentId ?? project.environmentId, 'environment');
  if (request.prompt) await requireAgent(deps.hosts, environment.hostId, request.provider);
  const draft: ThreadRecord = {
    id: newId('thr'),
    projectId: project.id,
    environmentId: environment.id,
    hostId: environment.hostId,
    provider: request.provider,
    model: request.model,
    title: request.title,
    ...(request.permissionMode ? { permissionMode: request.permissionMode } : {}),
    createdAt: new Date().toISOString(),
  };
  // Opening starts the agent when the host runs its provider: providerThreadId is its session id from now on.
  const opened = await openThreadOnHost(deps, draft);
  const thread = await deps.registry.threads.insert({ ...draft, providerThreadId: opened.providerThreadId });
  if (!request.prompt) return thread;
  // The thread exists even when its first prompt fails. An agent that cannot run it (no key, unknown
  // model) is the thread's state, not a failed request: 201, the reason in the body and, from the daemon,
  // as a `provider/error` row (issue 12: the README's tour reads `.id`). Anything else names the thread.
  return promptOpenThread(deps, thread, request.prompt).then(
    (result) => result.thread,
    async (error: unknown) => {
      // `promptOpenThread` kept the reason on the record as `agentError`.
      if (error instanceof Problem && error.code === AGENT_FAILED) return mustGet(deps.registry.threads, thread.id, 'thread');
      if (error instanceof Problem) throw new Problem(error.status, error.code, error.detail, { ...error.extensions, threadId: draft.id });
      throw error;
    },
  );
}
