import { promises as fs } from 'node:fs';
import { gitSucceeds } from '../runGit';
import { undoCreate } from './createWorktree';
import { archive, deleteAll } from './removeWorktree';
import { dropRecord, listOwnWorktrees, readRecord, removeTempLeftovers, writeRecord } from './worktreeRecord';
import type { WorktreeDeps } from './worktreeDeps';
import { discardWorktree } from './worktreeSteps';

/**
 * At daemon start, before any git command runs: every step a kill cut short is finished or undone from the
 * records. A create that never reached `ready` is removed (its branch too if it made one that has not moved),
 * an archive or a delete is finished, a restore is undone (its snapshot still holds everything). The record
 * is written before `git worktree add` and dropped after the folder went, so no kill leaves a folder without
 * one: such a folder was made by hand, and is left alone and logged. Temporary index and record files go.
 */
export async function recoverWorktrees(deps: WorktreeDeps): Promise<void> {
  await fs.rm(deps.tempDir, { recursive: true, force: true });
  await removeTempLeftovers(deps.dataDir);
  for (const own of await listOwnWorktrees(deps.dataDir)) {
    const record = await readRecord(own.path);
    if (!record) {
      deps.log(`${own.path}: a folder among the worktrees with no record; left alone`);
      continue;
    }
    try {
      await deps.locks.run(record.commonDir, async () => {
        if (record.state === 'creating') {
          await undoCreate(record);
          await dropRecord(record.path);
        } else if (record.state === 'removing') await archive(record, deps);
        else if (record.state === 'restoring') {
          await discardWorktree(record);
          await writeRecord({ ...record, state: 'removed' });
        } else if (record.state === 'deleting') await deleteAll(record);
      });
    } catch (error) {
      deps.log(`recovering the worktree of ${record.threadId}: ${(error as Error).message}`);
    }
  }
}

/**
 * `git.prune_worktrees`: our worktrees of threads the server no longer has are archived (a dirty one is
 * snapshotted first: the service never throws uncommitted work away on a list's word), and `git worktree
 * prune` runs in every repository we hold worktrees of. Answers the thread ids whose worktree went.
 */
export async function pruneWorktrees(liveThreadIds: readonly string[], deps: WorktreeDeps): Promise<string[]> {
  const live = new Set(liveThreadIds);
  const removed: string[] = [];
  const repos = new Map<string, string>();
  for (const own of await listOwnWorktrees(deps.dataDir)) {
    const record = await readRecord(own.path);
    if (!record) continue;
    repos.set(record.commonDir, record.checkout);
    if (live.has(record.threadId) || record.state === 'removed') continue;
    try {
      await deps.locks.run(record.commonDir, async () => {
        if (record.state === 'deleting') await deleteAll(record);
        else await archive(record, deps);
      });
      removed.push(record.threadId);
    } catch (error) {
      deps.log(`pruning the worktree of ${record.threadId}: ${(error as Error).message}`);
    }
  }
  for (const [commonDir, checkout] of repos) {
    await deps.locks.run(commonDir, () => gitSucceeds(['worktree', 'prune'], { cwd: checkout }));
  }
  return removed;
}
