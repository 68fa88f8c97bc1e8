import { newId } from '../../protocol/ids';
import type { SetupRun } from '../../protocol/hostGitCommands';
import type { ProjectRecord, ThreadRecord, Workspace } from '../../registry/records';
import type { Registry } from '../../registry/registry';
import type { HostDirectory } from '../hosts/hostDirectory';
import { Problem } from '../http/problem';
import { defaultBranchOf } from '../workspaces/branchName';
import { WORKTREE_CREATE_TIMEOUT_MS } from '../workspaces/gitTimeouts';
import { removeWorktreeOnHost } from '../workspaces/removeWorktreeOnHost';
import { workspaceOfThread } from '../workspaces/workspaceOfThread';
import type { ForkCut } from './forkCut';

export interface ForkWorktreeDeps {
  registry: Registry;
  hosts: HostDirectory;
}

/** A fork's worktree as made on the host, and the environment that makes it the thread's root. */
export interface ForkedWorktree {
  thread: ThreadRecord;
  setup: SetupRun | null;
  /** Undoes it all (worktree, its branch, the environment) when the fork fails after it was made. */
  undo(): Promise<void>;
}

/**
 * The fork's own worktree, made on the host from the tree recorded at the end of the cut's turn, on a new
 * branch (`<prefix>/<short id>-<slug of the title>`, as any worktree thread's). A source with no completed
 * turn gives a worktree at the source's base (nothing of the agent's was there yet). The record is stored
 * `creating` first (the host's prune spares it), `ready` by the caller once the thread is open there.
 */
export async function makeForkWorktree(
  deps: ForkWorktreeDeps,
  project: ProjectRecord,
  source: ThreadRecord,
  draft: ThreadRecord,
  cut: ForkCut,
): Promise<ForkedWorktree> {
  const branch = defaultBranchOf(draft.id, draft.title, project.branchPrefix);
  const creating: Workspace = { kind: 'worktree', path: '', branch, baseRef: null, baseCommit: null, state: 'creating' };
  const thread = await deps.registry.threads.insert({ ...draft, environmentId: project.environmentId, workspace: creating });
  const sourceWorkspace = await workspaceOfThread(deps.registry, source);
  const common = {
    threadId: thread.id,
    projectId: project.id,
    checkout: project.source.path,
    branch,
    ...(project.setupScript ? { setupScript: project.setupScript } : {}),
  };
  const timeout = { timeoutMs: WORKTREE_CREATE_TIMEOUT_MS };
  try {
    const made =
      cut.sourceTurnId === null
        ? await deps.hosts.call(
            thread.hostId,
            'git.worktree_create',
            { ...common, ...(sourceWorkspace.baseCommit ? { baseRef: sourceWorkspace.baseCommit } : {}) },
            timeout,
          )
        : await deps.hosts.call(
            thread.hostId,
            'git.worktree_fork',
            {
              ...common,
              sourceThreadId: source.id,
              turnId: cut.sourceTurnId,
              ...(sourceWorkspace.path ? { sourcePath: sourceWorkspace.path } : {}),
            },
            timeout,
          );
    const environment = { id: newId('env'), hostId: thread.hostId, path: made.path, createdAt: new Date().toISOString() };
    await deps.registry.environments.insert(environment);
    const workspace: Workspace = {
      ...creating,
      path: made.path,
      branch: made.branch,
      baseRef: made.baseRef,
      baseCommit: made.baseCommit,
      state: 'ready',
    };
    const undo = async () => {
      await removeWorktreeOnHost(deps.hosts, thread, project, { keepSnapshot: false, deleteBranch: true, branch: made.branch }).catch(
        () => undefined,
      );
      await deps.registry.environments.remove(environment.id);
      await deps.registry.threads.remove(thread.id);
    };
    return { thread: { ...thread, environmentId: environment.id, workspace }, setup: made.setup, undo };
  } catch (error) {
    if (error instanceof Problem && error.code === 'not_found') {
      error = new Problem(409, 'turn_tree_missing', `${error.detail}: fork it into the checkout instead ("workspace": "checkout")`);
    }
    // The host refused or went away: nothing of the fork is kept here. What a kill left on the host is its
    // start-up recovery's (a `creating` worktree is undone) or its prune's (a thread it no longer hears of).
    await deps.registry.threads.remove(thread.id);
    throw error;
  }
}
