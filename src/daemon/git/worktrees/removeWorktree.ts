import { findWorkTree } from '../gitRepo';
import { deleteRefs, deleteThreadRefs, setRef, snapshotRef } from '../ownRefs';
import { undoCreate } from './createWorktree';
import { takeSnapshot } from './snapshot';
import { dropRecord, readRecord, worktreePath, writeRecord, type WorktreeRecord } from './worktreeRecord';
import type { WorktreeDeps } from './worktreeDeps';
import { deleteCreatedBranch, discardWorktree, isWorkTree } from './worktreeSteps';

export interface RemoveRequest {
  threadId: string;
  projectId: string;
  checkout: string;
  keepSnapshot: boolean;
  deleteBranch?: boolean | undefined;
}

/**
 * `git.worktree_remove`: archive (`keepSnapshot`) or delete. Each step is written to the record before the
 * next one runs, so a kill at any moment leaves a state that the next call (or the start-up recovery)
 * finishes: the snapshot ref is set before the record says `removing`, and nothing is deleted before that.
 */
export async function removeWorktree(request: RemoveRequest, deps: WorktreeDeps): Promise<{ snapshotRef: string | null }> {
  const folder = worktreePath(deps.dataDir, request.projectId, request.threadId);
  const record = await readRecord(folder);
  if (!record) {
    // A checkout thread, or one whose worktree is gone: only the refs it kept go, on delete.
    const repo = await findWorkTree(request.checkout);
    if (repo && !request.keepSnapshot) await deps.locks.run(repo.commonDir, () => deleteThreadRefs(repo.topLevel, request.threadId));
    return { snapshotRef: null };
  }
  return deps.locks.run(record.commonDir, async () => {
    if (request.keepSnapshot && record.state !== 'deleting') return archive(record, deps);
    await deleteAll({ ...record, state: 'deleting', deleteBranch: record.deleteBranch === true || request.deleteBranch === true });
    return { snapshotRef: null };
  });
}

/** Archive under the repository lock: snapshot first, then the folder; the branch always stays. */
export async function archive(record: WorktreeRecord, deps: WorktreeDeps): Promise<{ snapshotRef: string | null }> {
  let current = record;
  if (current.state === 'creating') {
    await undoCreate(current);
    await dropRecord(current.path);
    return { snapshotRef: null };
  }
  if (current.state === 'restoring') {
    await discardWorktree(current); // the restore never answered: the snapshot still holds everything
    current = { ...current, state: 'removed' };
    await writeRecord(current);
  }
  if (current.state === 'ready') {
    if (!(await isWorkTree(current.path))) {
      deps.log(`worktree of ${current.threadId} is not a git work tree any more (${current.path}); left in place`);
      return { snapshotRef: null };
    }
    const state = await takeSnapshot(current.path, deps.tempDir, current.threadId);
    // A detached worktree's commits are reachable from nothing else: its HEAD is kept even when clean.
    const keep = state.snapshot ?? (current.branch === null ? state.head : null);
    if (keep) await setRef(current.checkout, snapshotRef(current.threadId), keep);
    else await deleteRefs(current.checkout, [snapshotRef(current.threadId)]);
    current = { ...current, state: 'removing', head: state.head, snapshot: state.snapshot };
    await writeRecord(current);
  }
  if (current.state === 'removing') {
    await discardWorktree(current);
    current = { ...current, state: 'removed' };
    await writeRecord(current);
  }
  const kept = current.snapshot !== null || current.branch === null;
  return { snapshotRef: kept ? snapshotRef(current.threadId) : null };
}

/** Delete under the repository lock: the folder, the thread's refs, the branch only if asked and ours. */
export async function deleteAll(record: WorktreeRecord): Promise<void> {
  await writeRecord(record);
  await discardWorktree(record);
  await deleteThreadRefs(record.checkout, record.threadId);
  if (record.deleteBranch) await deleteCreatedBranch(record, null);
  await dropRecord(record.path);
}
