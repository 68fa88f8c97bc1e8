import type { PermissionMode } from '../../protocol/approvals';
import type { WorkspaceKind } from '../../protocol/hostGitCommands';
import { newId } from '../../protocol/ids';
import type { ThreadRecord } from '../../registry/records';
import { mustGet } from '../http/lookups';
import { Problem } from '../http/problem';
import { checkoutWorkspace } from '../workspaces/workspaceOfThread';
import { createWorktreeThread, type WorktreeRequest } from '../workspaces/createWorktreeThread';
import { runSetupThenPrompt } from '../workspaces/setupOutcome';
import { openThreadOnHost, type ThreadOnHostDeps } from './openThreadOnHost';
import { AGENT_FAILED, keepAgentError, promptOpenThread, requireAgent } from './promptThread';

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
  /** Absent: the project's `defaultWorkspace`, else `checkout` (issue 38). */
  workspace?: WorkspaceKind | undefined;
}

/**
 * Stores a thread in its project's (or the given) environment and opens it on the host, without waiting for
 * an agent (issue 28: an agent starts when a prompt needs it). A first prompt runs in the background: its
 * rows follow on SSE, and an agent that cannot run it leaves its reason on the record (`agentError`) and as a
 * `provider/error` row. Checks the host runs the agent before anything is stored when there is a prompt.
 */
export async function createThread(deps: ThreadOnHostDeps, request: NewThread & WorktreeRequest): Promise<ThreadRecord> {
  const project = await mustGet(deps.registry.projects, request.projectId, 'project');
  const kind = request.workspace ?? project.defaultWorkspace ?? 'checkout';
  if (kind === 'worktree' && request.environmentId !== undefined && request.environmentId !== project.environmentId) {
    throw new Problem(400, 'invalid_body', 'a worktree is made of the project’s own folder: leave environmentId out with "worktree"');
  }
  if (kind === 'checkout' && (request.baseRef !== undefined || request.branch !== undefined)) {
    throw new Problem(400, 'invalid_body', 'baseRef and branch are a worktree’s: send them with "workspace": "worktree"');
  }
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
  if (kind === 'worktree') {
    const made = await createWorktreeThread({ ...deps, open: (thread) => openThreadOnHost(deps, thread) }, project, draft, request);
    runSetupThenPrompt(deps, made, request.prompt, (thread, prompt) => runFirstPrompt(deps, thread, prompt));
    return made.thread;
  }
  // The host knows the thread from now on (a bad cwd or mode is refused here, before anything is stored);
  // providerThreadId becomes the agent's session id once one starts.
  const opened = await openThreadOnHost(deps, draft);
  const workspace = checkoutWorkspace(environment.path);
  const thread = await deps.registry.threads.insert({ ...draft, workspace, providerThreadId: opened.providerThreadId });
  if (request.prompt) runFirstPrompt(deps, thread, request.prompt);
  return thread;
}

/**
 * The thread exists even when its first prompt fails. An agent that cannot run it (no key, unknown model) is
 * the thread's state, not a failed request: `promptOpenThread` keeps the reason on the record, and the daemon
 * stores it as a `provider/error` row (issue 12). Any other refusal is kept the same way, as nobody waits.
 */
function runFirstPrompt(deps: ThreadOnHostDeps, thread: ThreadRecord, prompt: string): void {
  promptOpenThread(deps, thread, prompt).catch(async (error: unknown) => {
    if (error instanceof Problem && error.code === AGENT_FAILED) return;
    const reason =
      error instanceof Problem ? { code: error.code, message: error.detail } : { code: 'prompt_failed', message: String(error) };
    await keepAgentError(deps, thread.id, { ...reason, at: new Date().toISOString() }).catch(() => undefined);
  });
}
