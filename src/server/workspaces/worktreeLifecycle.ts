import { errorMessageOf } from '../../protocol/errorMessages';
import { threadUpdatedFrame } from '../../protocol/threadUpdateFrame';
import type { ThreadRecord, Workspace } from '../../registry/records';
import { mustGet } from '../http/lookups';
import { creatingWorkspaces } from './creatingWorkspaces';
import { makeWorktree, type WorktreeThreadDeps } from './createWorktreeThread';
import { WORKTREE_TIMEOUT_MS } from './gitTimeouts';
import { removeWorktreeOnHost } from './removeWorktreeOnHost';

/**
 * A worktree thread through its life (issue 38): an archive removes the worktree (its dirty state kept in a
 * snapshot ref), an unarchive or a prompt brings it back, a delete removes it for good. A checkout thread
 * passes through every step untouched.
 */
const isWorktree = (thread: ThreadRecord): thread is ThreadRecord & { workspace: Workspace } => thread.workspace?.kind === 'worktree';

/** The thread as a prompt needs it: its worktree ready (waited for while being made, made again or restored). */
export async function readyForPrompt(deps: WorktreeThreadDeps, thread: ThreadRecord): Promise<ThreadRecord> {
  if (!isWorktree(thread)) return thread;
  await creatingWorkspaces.settled(thread.id);
  const current = await mustGet(deps.registry.threads, thread.id, 'thread');
  if (!isWorktree(current) || current.workspace.state === 'ready') return current;
  if (current.workspace.state === 'removed') return restoreWorktree(deps, current);
  // `creating` with no making under way here (a restart cut it off) or `failed`: made again, idempotently.
  const project = await mustGet(deps.registry.projects, current.projectId, 'project');
  return (await makeWorktree(deps, project, current)).thread;
}

/** `PATCH {archived: true}`: the agent is closed already; the worktree goes, its state kept for the unarchive. */
export async function removeOnArchive(deps: WorktreeThreadDeps, thread: ThreadRecord): Promise<Workspace | undefined> {
  if (!isWorktree(thread) || thread.workspace.state !== 'ready') return undefined;
  const project = await mustGet(deps.registry.projects, thread.projectId, 'project');
  await removeWorktreeOnHost(deps.hosts, thread, project, { keepSnapshot: true, branch: thread.workspace.branch });
  return { ...thread.workspace, state: 'removed' };
}

/** `PATCH {archived: false}`: the worktree back, every file as it was, before the agent may start in it. */
export async function restoreOnUnarchive(deps: WorktreeThreadDeps, thread: ThreadRecord): Promise<Workspace | undefined> {
  if (!isWorktree(thread) || thread.workspace.state !== 'removed') return undefined;
  return (await restoreWorktree(deps, thread)).workspace;
}

async function restoreWorktree(deps: WorktreeThreadDeps, thread: ThreadRecord & { workspace: Workspace }): Promise<ThreadRecord> {
  const project = await mustGet(deps.registry.projects, thread.projectId, 'project');
  const { branch, baseCommit } = thread.workspace;
  const restored = await deps.hosts
    .call(
      thread.hostId,
      'git.worktree_restore',
      {
        threadId: thread.id,
        projectId: project.id,
        checkout: project.source.path,
        branch,
        baseCommit: baseCommit ?? 'HEAD',
      },
      { timeoutMs: WORKTREE_TIMEOUT_MS },
    )
    .catch(async (error: unknown) => {
      if (deps.hosts.isOnline(thread.hostId)) await keepWorkspace(deps, thread, { ...thread.workspace, state: 'failed' });
      throw error;
    });
  const environment = await deps.registry.environments.get(thread.environmentId);
  if (environment && environment.path !== restored.path) await deps.registry.environments.put({ ...environment, path: restored.path });
  return keepWorkspace(deps, thread, { ...thread.workspace, path: restored.path, state: 'ready' });
}

/** Stores the workspace on the record (read again: a prompt may have changed it) and says so in the thread's log. */
export async function keepWorkspace(deps: WorktreeThreadDeps, thread: ThreadRecord, workspace: Workspace): Promise<ThreadRecord> {
  const current = await mustGet(deps.registry.threads, thread.id, 'thread');
  const stored = await deps.registry.threads.put({ ...current, workspace });
  await announceWorkspace(deps, thread, { state: workspace.state });
  return stored;
}

/** A `thread/updated` row with the workspace's state (and a setup script's run), when the host is there to number it. */
export async function announceWorkspace(
  deps: Pick<WorktreeThreadDeps, 'hosts'>,
  thread: ThreadRecord,
  workspace: NonNullable<Parameters<typeof threadUpdatedFrame>[0]['workspace']>,
): Promise<void> {
  if (!deps.hosts.isOnline(thread.hostId)) return;
  await deps.hosts.call(thread.hostId, 'thread.ingest', { frame: threadUpdatedFrame({ threadId: thread.id, workspace }) });
}

/**
 * `DELETE /threads/:id`: the worktree and its snapshot and turn refs go; the branch stays unless asked for
 * (`?deleteBranch=true`). A host that fails it is logged, not waited for: the thread is gone either way, and the
 * host's prune at its next hello removes what is left of its worktree.
 */
export async function removeOnDelete(
  deps: Pick<WorktreeThreadDeps, 'registry' | 'hosts'> & { log(message: string): void },
  thread: ThreadRecord,
  deleteBranch: boolean,
): Promise<void> {
  if (!isWorktree(thread)) return;
  const project = await deps.registry.projects.get(thread.projectId);
  if (!project) return;
  await removeWorktreeOnHost(deps.hosts, thread, project, { keepSnapshot: false, deleteBranch, branch: thread.workspace.branch }).catch(
    (error: unknown) => deps.log(`thread ${thread.id}: its worktree was not removed (${errorMessageOf(error)})`),
  );
}
