import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { HostHandlers } from '../hostDispatcher';
import { gitDiff } from './diff/gitDiff';
import { forkWorktree } from './fork/forkWorktree';
import { asHostError } from './gitRepo';
import { createRepoLocks } from './repoLocks';
import { NO_AGENT_REWIND, type AgentRewind } from './rewind/agentRewind';
import type { RewindDeps, ThreadLog } from './rewind/rewindDeps';
import { recoverRewinds, rewindCommands, type RewindHandlers } from './rewind/rewindWing';
import { recoverShip } from './ship/recoverShip';
import { shipCommands, type ShipHandlers } from './ship/shipCommands';
import { SHIP_TIMEOUT_MS, type RemoteLimits, type ShipDeps } from './ship/shipDeps';
import type { GitDiffPart } from '../../protocol/hostGitCommands';
import { shipRowFrame, type ShipRowData, type ShipRowType } from '../../protocol/shipRows';
import { createTurnRecorder, type TurnRecorder } from './turns/turnRecorder';
import { createWorktree } from './worktrees/createWorktree';
import { pruneWorktrees, recoverWorktrees } from './worktrees/recoverWorktrees';
import { removeWorktree } from './worktrees/removeWorktree';
import { restoreWorktree } from './worktrees/restoreWorktree';
import { readRecord, worktreePath, worktreesRoot } from './worktrees/worktreeRecord';
import type { WorktreeDeps } from './worktrees/worktreeDeps';

export type GitHandlers = Pick<
  HostHandlers,
  'git.worktree_create' | 'git.worktree_remove' | 'git.worktree_restore' | 'git.diff' | 'git.prune_worktrees' | 'git.worktree_fork'
> &
  RewindHandlers &
  ShipHandlers;

/** The daemon's git wing: the git commands, the turn recorder, and the start-up recovery they wait for. */
export interface GitWing {
  handlers: GitHandlers;
  turns: TurnRecorder;
  /** Resolves once the start-up recovery ended (it never rejects: failures are logged). */
  recovered: Promise<void>;
  /** Waits for queued git work (turn trees) to end. */
  close(): Promise<void>;
}

/** A git wing without threads (benches, the git wing's own tests): its rows (a revert's, a commit's) go nowhere. */
export const NO_THREAD_LOG: ThreadLog = { list: async () => [], lastSeq: async () => 0, ingest: async () => undefined };

/** The git commands of the contract (issue 38, docs/worktrees.md): a thread's worktree, its diff and its turn trees. */
export function createGitWing(options: {
  dataDir: string;
  log(message: string): void;
  /** The threads' rows: read by a revert, written through (`thread.ingest`) by the rewind and ship commands. */
  threadLog?: ThreadLog;
  agent?: AgentRewind;
  /** How pushes and forge commands run (default: SHIP_TIMEOUT_MS, the daemon's own environment). */
  remote?: Partial<RemoteLimits>;
}): GitWing {
  const locks = createRepoLocks();
  const tempDir = path.join(options.dataDir, 'git-tmp');
  const turns = createTurnRecorder({ tempDir, locks, log: options.log });
  // Git notes a worktree by its real path; a data dir not made yet has no worktrees (nothing is written at start).
  // Its real path is kept once the data dir exists: one wait on the thread pool less for every command.
  let realDataDir: string | null = null;
  const depsNow = async (): Promise<WorktreeDeps> => ({
    dataDir: (realDataDir ??= await fs.realpath(options.dataDir).catch(() => null)) ?? path.resolve(options.dataDir),
    tempDir,
    locks,
    log: options.log,
  });
  const threadLog = options.threadLog ?? NO_THREAD_LOG;
  const rewindDeps = (deps: WorktreeDeps): RewindDeps => ({
    ...deps,
    threadLog,
    agent: options.agent ?? NO_AGENT_REWIND,
    turnOpen: (threadId) => turns.turnOpen(threadId),
  });
  const shipDeps = (deps: WorktreeDeps): ShipDeps => ({
    ...deps,
    remote: { timeoutMs: SHIP_TIMEOUT_MS, ...options.remote },
    announce: async <T extends ShipRowType>(threadId: string, type: T, data: ShipRowData<T>) => {
      await threadLog
        .ingest(shipRowFrame(threadId, type, data))
        .catch((error: Error) => options.log(`thread ${threadId}: ${type} row not written: ${error.message}`));
    },
  });
  // Worktrees first (a revert's work tree may be one being restored), then reverts and ship steps a kill cut short.
  const ready: Promise<void> = depsNow()
    .then(async (deps) => {
      await recoverWorktrees(deps);
      await recoverRewinds(rewindDeps(deps));
      await recoverShip(shipDeps(deps));
    })
    .catch((error: Error) => options.log(`worktree recovery: ${error.message}`));
  // Every command waits for the recovery; one thread's commands run one at a time.
  const serve =
    <P extends object, R, Part = never>(work: (params: P, deps: WorktreeDeps, sendPart?: (part: Part) => void) => Promise<R>) =>
    async (params: P, sendPart?: (part: Part) => void): Promise<R> => {
      await ready;
      const deps = await depsNow();
      const run = () => work(params, deps, sendPart);
      const threadId = 'threadId' in params ? String(params.threadId) : null;
      try {
        return await (threadId ? locks.run(`thread:${threadId}`, run) : run());
      } catch (error) {
        throw asHostError(error);
      }
    };
  const handlers: GitHandlers = {
    'git.worktree_create': serve(createWorktree),
    'git.worktree_fork': serve(forkWorktree),
    'git.worktree_remove': serve(async (params, deps) => {
      const answer = await removeWorktree(params, deps);
      if (!params.keepSnapshot) turns.forget(params.threadId);
      return answer;
    }),
    'git.worktree_restore': serve(restoreWorktree),
    'git.diff': serve((params, deps, sendPart?: (part: GitDiffPart) => void) =>
      gitDiff(
        params,
        {
          tempDir,
          baseCommitOf: async (threadId) => {
            const records = await fs.readdir(worktreesRoot(deps.dataDir)).catch(() => []);
            for (const projectId of records) {
              const record = await readRecord(worktreePath(deps.dataDir, projectId, threadId));
              if (record) return record.baseCommit;
            }
            return null;
          },
        },
        sendPart && ((files) => sendPart({ files })),
      ),
    ),
    'git.revert_turn': serve((params, deps) => rewindCommands.revert(params, rewindDeps(deps))),
    'git.unrevert': serve((params, deps) => rewindCommands.unrevert(params, rewindDeps(deps))),
    'git.commit': serve((params, deps) => shipCommands['git.commit'](params, shipDeps(deps))),
    'git.push': serve((params, deps) => shipCommands['git.push'](params, shipDeps(deps))),
    'forge.pull_request_create': serve((params, deps) => shipCommands['forge.pull_request_create'](params, shipDeps(deps))),
    'forge.pull_request_view': serve((params, deps) => shipCommands['forge.pull_request_view'](params, shipDeps(deps))),
    'git.prune_worktrees': serve(async (params: { liveThreadIds: string[] }, deps) => ({
      removed: await pruneWorktrees(params.liveThreadIds, deps),
    })),
  };
  return {
    handlers,
    turns,
    recovered: ready,
    async close() {
      await ready;
      await locks.idle();
    },
  };
}
