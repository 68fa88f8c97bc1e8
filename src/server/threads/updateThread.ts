import { z } from 'zod';
import { PermissionModeSchema } from '../../protocol/approvals';
import type { ThreadRecord } from '../../registry/records';
import { mustGet } from '../http/lookups';
import { keepProviderThreadId, openThreadOnHost, type ThreadOnHostDeps } from './openThreadOnHost';

/** `PATCH /threads/:id`: the fields a client may change; each is optional, absent ones stay. */
export const ThreadPatchSchema = z.strictObject({
  /** Only while no turn runs (409 `thread_busy`); `full-access` only where the host allows it (403 `mode_not_allowed`). */
  permissionMode: PermissionModeSchema.optional(),
});
export type ThreadPatch = z.infer<typeof ThreadPatchSchema>;

/**
 * Applies a patch: what the host must agree to goes first (it may refuse, and then nothing changed), the
 * record last. A field the host does not care about is a record change alone.
 */
export async function updateThread(deps: ThreadOnHostDeps, thread: ThreadRecord, patch: ThreadPatch): Promise<ThreadRecord> {
  const { permissionMode } = patch;
  if (permissionMode !== undefined) {
    // Opened in the new mode when the host has not opened it yet (a daemon restart); one it has open keeps
    // its session, and `thread.configure` switches it. Either way the host checks the mode is allowed.
    const opened = await openThreadOnHost(deps, { ...thread, permissionMode });
    await keepProviderThreadId(deps.registry, thread, opened.providerThreadId);
    await deps.hosts.call(thread.hostId, 'thread.configure', { threadId: thread.id, permissionMode });
  }
  // Read again: a prompt or a background re-open may have changed the record meanwhile.
  const current = await mustGet(deps.registry.threads, thread.id, 'thread');
  return deps.registry.threads.put({ ...current, ...definedFields(patch) });
}

function definedFields(patch: ThreadPatch): Partial<ThreadRecord> {
  return Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
}
