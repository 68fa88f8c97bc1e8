import { REWIND_METHOD, threadRevertedFrame, threadUnrevertedFrame } from '../../../protocol/rewindFrames';
import { dropRevertRefs, setRevertRefs } from './revertRefs';
import { putFiles } from './filesState';
import { dropStep, type RewindStep } from './rewindJournal';
import type { RewindDeps } from './rewindDeps';
import { dropSessionPoint, keepSessionPoint, sessionPointOf } from './sessionPoints';
import { addUndone, noticeText, removeUndone } from './undoneNotice';

/** What the agent's conversation holds where an unrevert moved it back (pi: a branch summary). */
export const UNREVERT_SUMMARY =
  '[The user undid the revert: the files are back as they were after those turns, so that work stands again.]';

/** How many of the thread's last rows are read for this step's row (written last, so it is among them). */
const ROW_LOOKBACK = 50;

/**
 * Everything of a journaled step after the journal was written, each part idempotent, so the daemon's next
 * start runs it again after a kill: the refs, the files, the agent's conversation or the notice for the next
 * prompt, the row (unless it is stored already), and last the journal goes. Runs under the repository's lock.
 */
export async function finishStep(step: RewindStep, deps: RewindDeps, done: { refsAndFiles?: boolean } = {}): Promise<void> {
  if (step.action === 'revert') {
    // A revert's first run set its refs and files in the same pass that stored the state (storeStateThenPut).
    if (!done.refsAndFiles) {
      await setRevertRefs(step.workTree, step.base, step.before, step.target);
      await putFiles(step.workTree, deps.tempDir, step.target);
    }
    await moveAgentBack(step, deps);
  } else {
    await putFiles(step.workTree, deps.tempDir, `${step.before}^{tree}`);
    await removeUndone(deps.dataDir, step.threadId, step.undoneTurnIds);
    const point = await sessionPointOf(deps.dataDir, step.threadId, step.base);
    if (point !== undefined) await deps.agent.rewind(step.threadId, point, UNREVERT_SUMMARY);
    await dropSessionPoint(deps.dataDir, step.threadId, step.base);
  }
  await writeRowOnce(step, deps);
  if (step.action === 'unrevert') await dropRevertRefs(step.workTree, step.base);
  await dropStep(deps.dataDir, step.threadId);
}

/**
 * The agent's conversation back to the turn's start where its provider can; else (or when that fails) the undone
 * turns are told in the next prompt. Either way the same text says which turns were undone.
 */
async function moveAgentBack(step: RewindStep, deps: RewindDeps): Promise<void> {
  const rows = await deps.threadLog.list(step.threadId);
  const summary = noticeText(step.undoneTurnIds, rows);
  const before = step.agentCheckpoint === undefined ? undefined : await deps.agent.rewind(step.threadId, step.agentCheckpoint, summary);
  if (before === undefined) await addUndone(deps.dataDir, step.threadId, step.undoneTurnIds);
  else await keepSessionPoint(deps.dataDir, step.threadId, step.base, before);
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
