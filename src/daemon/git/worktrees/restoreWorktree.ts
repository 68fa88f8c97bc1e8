import { HostCommandError } from '../../../protocol/hostErrors';
import { branchTip } from '../gitRepo';
import { deleteRefs, snapshotRef } from '../ownRefs';
import { copyIncluded } from './copyIncluded';
import { applySnapshot } from './snapshot';
import { readRecord, worktreePath, writeRecord, type WorktreeRecord } from './worktreeRecord';
import type { WorktreeDeps } from './worktreeDeps';
import { addWorktree, discardWorktree, exists } from './worktreeSteps';

export interface RestoreRequest {
  threadId: string;
  projectId: string;
  branch: string | null;
  baseCommit: string;
}

/**
 * `git.worktree_restore`: the archived worktree again, on its branch (made anew at the archived HEAD if the
 * user deleted it) or detached at its HEAD, then its snapshot put back. Written `restoring` first, so a
 * restore a kill cut short is undone and redone; the snapshot ref goes only once the record says `ready`.
 */
export async function restoreWorktree(request: RestoreRequest, deps: WorktreeDeps): Promise<{ path: string; fromSnapshot: boolean }> {
  const folder = worktreePath(deps.dataDir, request.projectId, request.threadId);
  const record = await readRecord(folder);
  if (!record) throw new HostCommandError('not_found', `no archived worktree of ${request.threadId} on this host`);
  if (record.state === 'ready' && (await exists(folder))) return { path: folder, fromSnapshot: false };
  if (record.state === 'creating' || record.state === 'deleting') {
    throw new HostCommandError('git_failed', `the worktree of ${request.threadId} is ${record.state}, not archived`);
  }
  const restored = await deps.locks.run(record.commonDir, async () => {
    if (record.state !== 'removed') await discardWorktree(record); // a restore or an archive a kill cut short
    const restoring: WorktreeRecord = { ...record, state: 'restoring' };
    await writeRecord(restoring);
    try {
      await checkOut(restoring, request);
      if (restoring.snapshot) await applySnapshot(folder, restoring.snapshot);
    } catch (error) {
      await discardWorktree(restoring);
      await writeRecord({ ...record, state: 'removed' });
      throw error;
    }
    return restoring;
  });
  await copyIncluded(restored.checkout, folder);
  await writeRecord({ ...restored, state: 'ready', head: null, snapshot: null });
  await deps.locks.run(record.commonDir, () => deleteRefs(restored.checkout, [snapshotRef(request.threadId)]));
  return { path: folder, fromSnapshot: restored.snapshot !== null };
}

async function checkOut(record: WorktreeRecord, request: RestoreRequest): Promise<void> {
  const at = record.head ?? request.baseCommit;
  const branch = record.branch;
  if (branch === null) return addWorktree(record, at, false);
  const tip = await branchTip(record.checkout, branch);
  await addWorktree(record, at, tip === null);
}
