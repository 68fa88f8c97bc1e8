import { HostCommandError } from '../../../protocol/hostErrors';
import type { StoredThreadEvent } from '../../../protocol/threadEvents';
import type { RevertTurnParams, RevertTurnResult, UnrevertParams, UnrevertResult } from '../../../protocol/hostRewindCommands';
import { requireWorkTree } from '../gitRepo';
import { recordedTurns } from '../turns/turnRefs';
import { worktreeTree } from '../tempIndex';
import { storeStateThenPut } from './filesState';
import { finishStep, snapshotRefOf } from './finishStep';
import { latestRevert, revertRefBase, setRevertRefs } from './revertRefs';
import { checkpointBefore } from './sessionPoints';
import { writeStep, type RewindStep } from './rewindJournal';
import type { RewindDeps } from './rewindDeps';

/** True when a turn started after the revert's row (the conversation went on from the reverted point). */
function turnSince(rows: readonly StoredThreadEvent[], snapshotRef: string): boolean {
  const at = rows.map((row) => row.type === 'thread/reverted' && row.data.snapshotRef === snapshotRef).lastIndexOf(true);
  return at >= 0 && rows.slice(at).some((row) => row.type === 'turn/started');
}

function refuseDuringTurn(threadId: string, deps: RewindDeps): void {
  if (deps.turnOpen(threadId)) {
    throw new HostCommandError('thread_busy', `thread ${threadId} has a turn running: stop it or wait for its end first`);
  }
}

/**
 * `git.revert_turn`: the files back as they were at the turn's start (its recorded start tree), uncommitted
 * changes made since included, after the state they replace is stored. Journal first (nothing visible yet),
 * then refs, files and row (finishStep), so a kill anywhere ends in all of it or none of it.
 */
export async function revertTurn(params: RevertTurnParams, deps: RewindDeps): Promise<RevertTurnResult> {
  refuseDuringTurn(params.threadId, deps);
  const tree = await requireWorkTree(params.path);
  return deps.locks.run(tree.commonDir, async () => {
    const turns = await recordedTurns(tree.topLevel, params.threadId);
    const at = turns.findIndex((turn) => turn.turnId === params.turnId);
    if (at < 0) throw new HostCommandError('not_found', `no recorded start of turn ${params.turnId} in thread ${params.threadId}`);
    const undoneTurnIds = turns.slice(at).map((turn) => turn.turnId);
    const agentCheckpoint = checkpointBefore(await deps.threadLog.list(params.threadId), params.turnId);
    const target = turns[at]!.start;
    const message = `state of ${params.threadId} before reverting ${params.turnId}`;
    let step: RewindStep | undefined;
    await storeStateThenPut(tree.topLevel, deps.tempDir, message, target, async (before) => {
      step = {
        action: 'revert',
        threadId: params.threadId,
        workTree: tree.topLevel,
        commonDir: tree.commonDir,
        turnId: params.turnId,
        base: revertRefBase(params.threadId, params.turnId, (deps.now ?? Date.now)()),
        before,
        target,
        undoneTurnIds,
        ...(agentCheckpoint === undefined ? {} : { agentCheckpoint }),
      };
      await writeStep(deps.dataDir, step);
      await setRevertRefs(step.workTree, step.base, step.before, step.target);
    });
    await finishStep(step!, deps, { refsAndFiles: true });
    return { turnId: params.turnId, snapshotRef: snapshotRefOf(step!), undoneTurnIds };
  });
}

/**
 * `git.unrevert`: the newest revert undone, its stored state's files (and the agent's conversation, where the
 * revert moved it) back. Refused once the files changed since that revert (the user edited, an agent wrote) or a
 * turn ran since: putting the old state back would lose those changes, so the revert stays, as opencode makes a
 * revert final once the session moves on.
 */
export async function unrevert(params: UnrevertParams, deps: RewindDeps): Promise<UnrevertResult> {
  refuseDuringTurn(params.threadId, deps);
  const tree = await requireWorkTree(params.path);
  return deps.locks.run(tree.commonDir, async () => {
    const revert = await latestRevert(tree.topLevel, params.threadId);
    if (!revert) throw new HostCommandError('nothing_to_unrevert', `thread ${params.threadId} has no revert to undo`);
    if ((await worktreeTree(tree.topLevel, deps.tempDir)) !== revert.after) {
      throw new HostCommandError(
        'changed_since_revert',
        `the files of thread ${params.threadId} changed since its revert of turn ${revert.turnId}: the revert stays`,
      );
    }
    if (turnSince(await deps.threadLog.list(params.threadId), `${revert.base}/before`)) {
      throw new HostCommandError(
        'changed_since_revert',
        `thread ${params.threadId} ran a turn since its revert of turn ${revert.turnId}: the revert stays`,
      );
    }
    const turns = await recordedTurns(tree.topLevel, params.threadId);
    const at = turns.findIndex((turn) => turn.turnId === revert.turnId);
    const step: RewindStep = {
      action: 'unrevert',
      threadId: params.threadId,
      workTree: tree.topLevel,
      commonDir: tree.commonDir,
      turnId: revert.turnId,
      base: revert.base,
      before: revert.before,
      target: revert.after,
      // The turns that revert undid: the agent need not be told of them any more.
      undoneTurnIds: at < 0 ? [] : turns.slice(at).map((turn) => turn.turnId),
    };
    await writeStep(deps.dataDir, step);
    await finishStep(step, deps);
    return { turnId: step.turnId, snapshotRef: snapshotRefOf(step) };
  });
}
