import { REWIND_METHOD, threadRevertedFrame, threadUnrevertedFrame } from '../../../protocol/rewindFrames';
import { dropRevertRefs, setRevertRefs } from './revertRefs';
import { putFiles } from './filesState';
import { dropStep, type RewindStep } from './rewindJournal';
import type { RewindDeps } from './rewindDeps';
import { addUndone, removeUndone } from './undoneNotice';

/** How many of the thread's last rows are read for this step's row (written last, so it is among them). */
const ROW_LOOKBACK = 50;

/**
 * Everything of a journaled step after the journal was written, each part idempotent, so the daemon's next
 * start runs it again after a kill: the refs, the files, the notice for the next prompt, the row (unless it is
 * stored already), and last the journal goes. Runs under the repository's lock.
 */
export async function finishStep(step: RewindStep, deps: RewindDeps): Promise<void> {
  if (step.action === 'revert') {
    await setRevertRefs(step.workTree, step.base, step.before, step.target);
    await putFiles(step.workTree, deps.tempDir, step.target);
    await addUndone(deps.dataDir, step.threadId, step.undoneTurnIds);
  } else {
    await putFiles(step.workTree, deps.tempDir, `${step.before}^{tree}`);
    await removeUndone(deps.dataDir, step.threadId, step.undoneTurnIds);
  }
  await writeRowOnce(step, deps);
  if (step.action === 'unrevert') await dropRevertRefs(step.workTree, step.base);
  await dropStep(deps.dataDir, step.threadId);
}

export function snapshotRefOf(step: Pick<RewindStep, 'base'>): string {
  return `${step.base}/before`;
}

async function writeRowOnce(step: RewindStep, deps: RewindDeps): Promise<void> {
  const method = step.action === 'revert' ? REWIND_METHOD.reverted : REWIND_METHOD.unreverted;
  const snapshotRef = snapshotRefOf(step);
  const last = await deps.threadLog.lastSeq(step.threadId);
  const rows = await deps.threadLog.list(step.threadId, { afterSeq: Math.max(0, last - ROW_LOOKBACK) });
  if (rows.some((row) => row.type === method && row.data.snapshotRef === snapshotRef)) return;
  const { threadId, turnId, undoneTurnIds } = step;
  await deps.threadLog.ingest(
    step.action === 'revert'
      ? threadRevertedFrame({ threadId, turnId, snapshotRef, undoneTurnIds })
      : threadUnrevertedFrame({ threadId, turnId, snapshotRef }),
  );
}
