import type { NewThreadEvent } from '../../../protocol/threadEvents';
import { findWorkTree, type GitWorkTree } from '../gitRepo';
import type { RepoLocks } from '../repoLocks';
import { worktreeTree } from '../tempIndex';
import { recordEdge, turnRefBase } from './turnRefs';

/** How long a prompt waits for its turn's start tree before it goes to the agent anyway (logged). */
export const TURN_START_WAIT_MS = 5_000;

/** One thread's turn recording: its work tree, the open turn, and a start tree taken before its prompt. */
interface ThreadTurns {
  workTree: Promise<GitWorkTree | null>;
  openTurn: { turnId: string; refBase: string } | null;
  pendingStart: Promise<string | null> | null;
}

export interface TurnRecorder {
  /** `thread.open` answered: the thread's folder, whose work tree (if any) gets turn trees. */
  opened(threadId: string, cwd: string): void;
  /** Before a prompt reaches the agent: the tree its turn starts from. Never throws. */
  beforePrompt(threadId: string): Promise<void>;
  /** Rows the ingest appends: `turn/started` and `turn/completed` set the turn's refs. Never throws. */
  rowsAppended(rows: readonly NewThreadEvent[]): void;
  forget(threadId: string): void;
  /** True while a turn of the thread is open (its start seen, its end not yet). */
  turnOpen(threadId: string): boolean;
}

/**
 * Records the work tree's tree at each turn's start and end (docs/worktrees.md "Turn trees"), for any thread
 * whose folder is in a git work tree. Git work is queued per repository and its errors are logged: recording
 * never fails a turn, and slows one only by the start tree its prompt waits for (at most TURN_START_WAIT_MS).
 */
export function createTurnRecorder(deps: { tempDir: string; locks: RepoLocks; log(message: string): void; now?(): number }): TurnRecorder {
  const threads = new Map<string, ThreadTurns>();
  const now = deps.now ?? Date.now;
  const inQueue = <T>(thread: ThreadTurns, what: string, work: (tree: GitWorkTree) => Promise<T>): Promise<T | null> =>
    thread.workTree.then(async (tree) => {
      if (!tree) return null;
      try {
        return await deps.locks.run(tree.commonDir, () => work(tree));
      } catch (error) {
        deps.log(`turn trees: ${what}: ${(error as Error).message}`);
        return null;
      }
    });
  const treeNow = (thread: ThreadTurns, what: string): Promise<string | null> =>
    inQueue(thread, what, (tree) => worktreeTree(tree.topLevel, deps.tempDir));

  const started = (threadId: string, thread: ThreadTurns, turnId: string): void => {
    const refBase = turnRefBase(threadId, turnId, now());
    thread.openTurn = { turnId, refBase };
    const pending = thread.pendingStart ?? treeNow(thread, `${threadId} start`);
    thread.pendingStart = null;
    void pending.then(async (start) => {
      if (start) await inQueue(thread, `${threadId} start ref`, (tree) => recordEdge(tree.topLevel, refBase, 'start', start));
    });
  };
  const completed = (threadId: string, thread: ThreadTurns): void => {
    const open = thread.openTurn;
    thread.openTurn = null;
    if (!open) return;
    void inQueue(thread, `${threadId} end`, async (tree) =>
      recordEdge(tree.topLevel, open.refBase, 'end', await worktreeTree(tree.topLevel, deps.tempDir)),
    );
  };

  return {
    opened(threadId, cwd) {
      const known = threads.get(threadId);
      if (known) return;
      threads.set(threadId, { workTree: findWorkTree(cwd), openTurn: null, pendingStart: null });
    },
    async beforePrompt(threadId) {
      const thread = threads.get(threadId);
      // A prompt during a turn is a follow-up: the turn it starts records its own start when it starts.
      if (!thread || thread.openTurn) return;
      const pending = treeNow(thread, `${threadId} start`);
      thread.pendingStart = pending;
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), TURN_START_WAIT_MS)));
      if ((await Promise.race([pending, late])) === 'late')
        deps.log(`turn trees: ${threadId} start tree took over ${TURN_START_WAIT_MS} ms`);
      clearTimeout(timer);
    },
    rowsAppended(rows) {
      for (const row of rows) {
        const thread = threads.get(row.threadId);
        if (!thread || row.turnId === null) continue;
        if (row.type === 'turn/started') started(row.threadId, thread, row.turnId);
        else if (row.type === 'turn/completed') completed(row.threadId, thread);
      }
    },
    forget(threadId) {
      threads.delete(threadId);
    },
    turnOpen(threadId) {
      return threads.get(threadId)?.openTurn != null;
    },
  };
}
