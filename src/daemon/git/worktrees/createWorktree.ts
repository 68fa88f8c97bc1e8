import { HostCommandError } from '../../../protocol/hostErrors';
import type { WorktreeCreateParams, WorktreeCreateResult } from '../../../protocol/hostGitCommands';
import { branchTip, checkBranchName, requireWorkTree, resolveCommit } from '../gitRepo';
import { copyIncluded } from './copyIncluded';
import { runSetup } from './runSetup';
import { readRecord, worktreePath, writeRecord, type WorktreeRecord } from './worktreeRecord';
import type { WorktreeDeps } from './worktreeDeps';
import { addWorktree, deleteCreatedBranch, discardWorktree, exists } from './worktreeSteps';

/**
 * `git.worktree_create`. The record is written `creating` before git runs and `ready` only after the
 * includes were copied and the setup script ran, so a create a kill cut short is undone (its folder, the
 * branch it made) and done again, never trusted. A `ready` worktree is answered as it is (idempotent).
 */
export async function createWorktree(params: WorktreeCreateParams, deps: WorktreeDeps): Promise<WorktreeCreateResult> {
  const repo = await requireWorkTree(params.checkout);
  if (params.branch !== null) await checkBranchName(repo.topLevel, params.branch);
  const folder = worktreePath(deps.dataDir, params.projectId, params.threadId);
  const made = await deps.locks.run(repo.commonDir, async () => {
    const existing = await readRecord(folder);
    // A ready worktree is never made again while its folder is there: what is in it may be the only copy.
    if (existing?.state === 'ready' && (await exists(folder))) return { record: existing, fresh: false };
    if (existing && existing.state !== 'creating' && existing.state !== 'ready') {
      throw new HostCommandError('git_failed', `the worktree of ${params.threadId} is ${existing.state}: restore it instead`);
    }
    if (existing) await undoCreate(existing);
    else await discardWorktree({ checkout: repo.topLevel, commonDir: repo.commonDir, path: folder });
    const baseRef = params.baseRef ?? 'HEAD';
    const baseCommit = await resolveCommit(repo.topLevel, baseRef);
    const tip = params.branch === null ? null : await branchTip(repo.topLevel, params.branch);
    const record: WorktreeRecord = {
      threadId: params.threadId,
      projectId: params.projectId,
      checkout: repo.topLevel,
      commonDir: repo.commonDir,
      path: folder,
      state: 'creating',
      branch: params.branch,
      createdBranch: params.branch !== null && tip === null,
      baseRef,
      baseCommit: tip ?? baseCommit,
      setup: null,
      head: null,
      snapshot: null,
    };
    await writeRecord(record);
    await addWorktree(record, record.baseCommit, record.createdBranch);
    return { record, fresh: true };
  });
  let record = made.record;
  if (made.fresh) {
    // Outside the repository lock: a long setup script must not hold up other threads' git work.
    await copyIncluded(repo.topLevel, folder);
    const setup = params.setupScript ? await runSetup(params.setupScript, folder, repo.topLevel) : null;
    record = { ...record, state: 'ready', setup };
    await writeRecord(record);
  }
  return { path: folder, branch: record.branch, baseRef: record.baseRef, baseCommit: record.baseCommit, setup: record.setup };
}

/** A create that never reached `ready`: its folder goes, and its branch if it made one that has not moved. */
export async function undoCreate(record: WorktreeRecord): Promise<void> {
  await discardWorktree(record);
  await deleteCreatedBranch(record, record.baseCommit);
}
