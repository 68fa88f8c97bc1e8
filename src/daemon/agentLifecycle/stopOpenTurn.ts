import { THREAD_STOP_METHOD } from '../../protocol/signals';
import { THREAD_EVENT_TYPE } from '../../protocol/threadEvents';
import type { ThreadIngest } from '../../ingest/threadIngest';
import type { ThreadSession } from './threadSession';

export interface StopTurnDeps {
  ingest: ThreadIngest;
  /** Pushes one frame through the pipeline and answers the seqs it stored (or throws the ingest's error). */
  ingestFrame(frame: unknown, threadId: string): Promise<number[]>;
}

/**
 * The stop signal of a thread (`thread.stop`), with or without an agent here: questions are cancelled first
 * (the agent learns its tool call will not run before it is told to stop, and their `approval/resolved` rows
 * land inside the turn the stop ends), then the stop enters the pipeline before the abort, so the aborted
 * run's agent_end closes the turn as interrupted.
 */
export async function stopTurn(
  deps: StopTurnDeps,
  threadId: string,
  session: ThreadSession | undefined,
  reason: string,
): Promise<number[]> {
  // A start still under way is cut short (issue 37: an agent that never answers its start must not hold the
  // stop); its prompt becomes a failed turn saying so. A start that already delivered its agent is awaited: the
  // frames of a run its extensions began are held until then, and must reach the pipeline before the stop does.
  session?.agent.cutShort(new Error(reason));
  const agent = await session?.agent.current();
  session?.approvals.cancelAll(reason);
  const seqs = await deps.ingestFrame({ jsonrpc: '2.0', method: THREAD_STOP_METHOD, params: { threadId } }, threadId);
  await agent?.stop();
  return seqs;
}

/**
 * Stops the thread's open turn, if any, and resolves once it is closed and stored (its `interrupted`
 * turn/completed comes with the aborted run's end, or the turn grace ends it): the agent can then be closed
 * and the thread's rows removed without a turn left open. Answers every seq stored meanwhile.
 */
export async function stopOpenTurn(
  deps: StopTurnDeps & { turnEndWaitMs: number },
  threadId: string,
  session: ThreadSession | undefined,
  reason: string,
): Promise<number[]> {
  if (await turnClosed(deps.ingest, threadId)) {
    session?.approvals.cancelAll(reason);
    return [];
  }
  const stored: number[] = [];
  let ended!: () => void;
  const turnEnded = new Promise<void>((resolve) => (ended = resolve));
  const unwatch = session?.watchRows((rows) => {
    for (const row of rows) {
      stored.push(row.seq);
      if (row.type === THREAD_EVENT_TYPE.turnCompleted) ended();
    }
  });
  try {
    const seqs = await stopTurn(deps, threadId, session, reason);
    if (!(await turnClosed(deps.ingest, threadId))) await untilClosed(deps.ingest, threadId, turnEnded, deps.turnEndWaitMs);
    return [...new Set([...seqs, ...stored])].sort((a, b) => a - b);
  } finally {
    unwatch?.();
  }
}

const turnClosed = async (ingest: ThreadIngest, threadId: string) => (await ingest.threadStatus(threadId)) !== 'active';

/** Waits for the turn's end: its row from the agent, or (an intake-fed run, the grace) the status turning idle. */
async function untilClosed(ingest: ThreadIngest, threadId: string, turnEnded: Promise<void>, waitMs: number): Promise<void> {
  const deadline = Date.now() + waitMs;
  const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 25));
  while (Date.now() < deadline) {
    await Promise.race([turnEnded, tick()]);
    if (await turnClosed(ingest, threadId)) return;
  }
}
