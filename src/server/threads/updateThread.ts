import { z } from 'zod';
import { PermissionModeSchema } from '../../protocol/approvals';
import { threadUpdatedFrame, type ThreadChanges } from '../../protocol/threadUpdateFrame';
import type { ThreadRecord } from '../../registry/records';
import { mustGet } from '../http/lookups';
import { keepProviderThreadId, openThreadOnHost, type ThreadOnHostDeps } from './openThreadOnHost';
import { removeOnArchive, restoreOnUnarchive } from '../workspaces/worktreeLifecycle';

/** `PATCH /threads/:id`: the fields a client may change; each is optional, absent ones stay. */
export const ThreadPatchSchema = z.strictObject({
  /** A new name. */
  title: z.string().min(1).max(500).optional(),
  /** Put away (its agent closes, prompts answer 409 `thread_archived`) or brought back as it was. */
  archived: z.boolean().optional(),
  /** Keep the agent running from the host's hello on, never closed for idleness (pi extensions with timers). */
  keepAgentRunning: z.boolean().optional(),
  /** Only while no turn runs (409 `thread_busy`); `full-access` only where the host allows it (403 `mode_not_allowed`). */
  permissionMode: PermissionModeSchema.optional(),
});
export type ThreadPatch = z.infer<typeof ThreadPatchSchema>;
/** What a patch changes of the record (a workspace changes only through its lifecycle, src/server/workspaces). */
type PatchChanges = Omit<ThreadChanges, 'workspace'>;

/**
 * Applies a patch: what the host must agree to goes first (it may refuse, and then nothing changed), the
 * record next, and last a `thread/updated` row of the fields that changed, sent through the host's pipeline
 * (`thread.ingest`) so it is numbered like every row and every reader of the thread sees it. While the host is
 * away the record changes alone: no row is written, and the host applies the record at its next hello.
 */
export async function updateThread(deps: ThreadOnHostDeps, thread: ThreadRecord, patch: ThreadPatch): Promise<ThreadRecord> {
  const changes = changedFields(thread, patch);
  const online = deps.hosts.isOnline(thread.hostId);
  const { permissionMode } = patch;
  if (permissionMode !== undefined) {
    // Opened in the new mode when the host has not opened it yet (a daemon restart); one it has open keeps
    // its session, and `thread.configure` switches it. Either way the host checks the mode is allowed.
    const opened = await openThreadOnHost(deps, { ...thread, permissionMode });
    await keepProviderThreadId(deps.registry, thread, opened.providerThreadId);
    await deps.hosts.call(thread.hostId, 'thread.configure', { threadId: thread.id, permissionMode });
  }
  // A worktree (issue 38) comes back before its agent may start in it, and goes once its agent closed.
  const worktrees = { ...deps, open: (opening: ThreadRecord) => openThreadOnHost(deps, opening) };
  const restored = online && changes.archived === false ? await restoreOnUnarchive(worktrees, thread) : undefined;
  if (online) await applyAgentChanges(deps, thread, changes);
  const removed = online && changes.archived === true ? await removeOnArchive(worktrees, thread) : undefined;
  // Read again: a prompt or a background re-open may have changed the record meanwhile.
  const current = await mustGet(deps.registry.threads, thread.id, 'thread');
  const workspace = restored ?? removed ?? current.workspace;
  const updated = await deps.registry.threads.put({ ...current, ...changes, ...(workspace ? { workspace } : {}) });
  if (Object.keys(changes).length > 0 && deps.hosts.isOnline(thread.hostId)) {
    const announced = removed ? { ...changes, workspace: { state: removed.state } } : changes;
    await deps.hosts.call(thread.hostId, 'thread.ingest', { frame: threadUpdatedFrame({ threadId: thread.id, ...announced }) });
  }
  return updated;
}

/** An archived thread has no agent; unarchived, it is as it was (its agent started again if kept running). */
async function applyAgentChanges(deps: ThreadOnHostDeps, thread: ThreadRecord, changes: PatchChanges): Promise<void> {
  const archived = changes.archived ?? thread.archived ?? false;
  const keepAgentRunning = changes.keepAgentRunning ?? thread.keepAgentRunning ?? false;
  if (changes.archived === true) {
    await deps.hosts.call(thread.hostId, 'thread.close_agent', { threadId: thread.id });
    if (changes.keepAgentRunning !== undefined) await keepRunning(deps, thread, false);
    return;
  }
  if (archived) return; // a keep-running change of an archived thread waits for its unarchive
  if (changes.keepAgentRunning !== undefined || (changes.archived === false && keepAgentRunning)) {
    await keepRunning(deps, thread, keepAgentRunning);
  }
}

async function keepRunning(deps: ThreadOnHostDeps, thread: ThreadRecord, keepAgentRunning: boolean): Promise<void> {
  // The host must know the thread before it can keep its agent (a thread not opened since its hello).
  const opened = await openThreadOnHost(deps, thread);
  await keepProviderThreadId(deps.registry, thread, opened.providerThreadId);
  await deps.hosts.call(thread.hostId, 'thread.keep_running', { threadId: thread.id, keepAgentRunning });
}

/** The fields of the patch whose value differs from the record's (an absent flag reads as false). */
function changedFields(thread: ThreadRecord, patch: ThreadPatch): PatchChanges {
  const changes: PatchChanges = {};
  if (patch.title !== undefined && patch.title !== thread.title) changes.title = patch.title;
  if (patch.archived !== undefined && patch.archived !== (thread.archived ?? false)) changes.archived = patch.archived;
  if (patch.keepAgentRunning !== undefined && patch.keepAgentRunning !== (thread.keepAgentRunning ?? false))
    changes.keepAgentRunning = patch.keepAgentRunning;
  if (patch.permissionMode !== undefined && patch.permissionMode !== thread.permissionMode) changes.permissionMode = patch.permissionMode;
  return changes;
}
