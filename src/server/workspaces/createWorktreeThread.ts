import type { ThreadOpenResult } from '../../protocol/hostContract';
import type { SetupRun } from '../../protocol/hostGitCommands';
import { newId } from '../../protocol/ids';
import type { Registry } from '../../registry/registry';
import type { ProjectRecord, ThreadRecord, Workspace } from '../../registry/records';
import type { HostDirectory } from '../hosts/hostDirectory';
import { defaultBranchOf } from './branchName';
import { creatingWorkspaces } from './creatingWorkspaces';
import { WORKTREE_CREATE_TIMEOUT_MS } from './gitTimeouts';
import { removeWorktreeOnHost } from './removeWorktreeOnHost';

/** What `POST /threads` may say of a worktree: absent ones take their defaults (docs/api.md). */
export interface WorktreeRequest {
  /** Default: the checkout's current `HEAD`. */
  baseRef?: string | undefined;
  /** Default `<prefix>/<short thread id>-<slug of the title>`; null: a detached worktree. */
  branch?: string | null | undefined;
}

export interface WorktreeThreadDeps {
  registry: Registry;
  hosts: HostDirectory;
  /** Opens the thread on its host in its (new) folder: `thread.open` with the worktree as `cwd`. */
  open(thread: ThreadRecord): Promise<ThreadOpenResult>;
}

export interface MadeWorktree {
  thread: ThreadRecord;
  /** The project's setup script as it ran in the new worktree; null without one. */
  setup: SetupRun | null;
}

/**
 * A thread in a worktree of its own: stored as `creating` first (a reader sees it, a prompt waits for it, the
 * host's prune spares it), then made on the host, given an environment for its folder (so quick-open, file
 * reads and the agent's `cwd` are the worktree's), opened there and stored `ready`. A refusal (not a git
 * repository, a branch or ref git refuses) leaves nothing behind: the request answers the host's code.
 */
export async function createWorktreeThread(
  deps: WorktreeThreadDeps,
  project: ProjectRecord,
  draft: ThreadRecord,
  request: WorktreeRequest,
): Promise<MadeWorktree> {
  const branch = request.branch === undefined ? defaultBranchOf(draft.id, draft.title, project.branchPrefix) : request.branch;
  const workspace: Workspace = {
    kind: 'worktree',
    path: '',
    branch,
    baseRef: request.baseRef ?? null,
    baseCommit: null,
    state: 'creating',
  };
  const creating = await deps.registry.threads.insert({ ...draft, workspace });
  try {
    return await makeWorktree(deps, project, creating);
  } catch (error) {
    await deps.registry.threads.remove(draft.id);
    throw error;
  }
}

/**
 * Makes (or, for a thread whose making was cut off, makes again: the host's create is idempotent per thread)
 * the thread's worktree and stores it `ready`. One making per thread at a time in this server.
 */
export function makeWorktree(deps: WorktreeThreadDeps, project: ProjectRecord, thread: ThreadRecord): Promise<MadeWorktree> {
  return creatingWorkspaces.run(thread.id, async () => {
    const planned = thread.workspace;
    const made = await deps.hosts.call(
      thread.hostId,
      'git.worktree_create',
      {
        threadId: thread.id,
        projectId: project.id,
        checkout: project.source.path,
        ...(planned?.baseRef ? { baseRef: planned.baseRef } : {}),
        branch: planned?.branch ?? null,
        ...(project.setupScript ? { setupScript: project.setupScript } : {}),
      },
      { timeoutMs: WORKTREE_CREATE_TIMEOUT_MS },
    );
    const environment = { id: newId('env'), hostId: thread.hostId, path: made.path, createdAt: new Date().toISOString() };
    await deps.registry.environments.insert(environment);
    const workspace: Workspace = {
      kind: 'worktree',
      path: made.path,
      branch: made.branch,
      baseRef: made.baseRef,
      baseCommit: made.baseCommit,
      state: 'ready',
    };
    const ready: ThreadRecord = { ...thread, environmentId: environment.id, workspace };
    try {
      const opened = await deps.open(ready);
      const stored = await deps.registry.threads.put({ ...ready, providerThreadId: opened.providerThreadId });
      return { thread: stored, setup: made.setup };
    } catch (error) {
      // The host made the worktree but will not run the thread there (a folder outside its allowed roots…).
      await removeWorktreeOnHost(deps.hosts, thread, project, {
        keepSnapshot: false,
        // Only the branch this thread named by default is its own to delete; one the user named may be theirs.
        deleteBranch: made.branch !== null && made.branch === defaultBranchOf(thread.id, thread.title, project.branchPrefix),
        branch: made.branch,
      }).catch(() => undefined);
      await deps.registry.environments.remove(environment.id);
      throw error;
    }
  });
}
