import { z } from 'zod';
import { WorktreeCreateParamsSchema, WorktreeCreateResultSchema } from './hostGitCommands';

/**
 * Git commands of a thread's fork (issue 39, docs/fork.md): the new thread's worktree starts at the tree the
 * daemon recorded at the end of one of the source thread's turns (`refs/ats/turns/<source>/…/end`), as a
 * commit of that tree on a new branch. Everything else is `git.worktree_create`'s: the same record, the same
 * completion marker and recovery, the same idempotence per (new) thread.
 */
export const WorktreeForkParamsSchema = WorktreeCreateParamsSchema.omit({ baseRef: true }).extend({
  /** The thread forked from: its turn refs name the tree. */
  sourceThreadId: z.string().regex(/^thr_/, 'a thread id starts with thr_'),
  /** The turn whose end tree the fork starts at; null: the source's last recorded turn. */
  turnId: z.string().min(1).nullable(),
  /** The source's folder now (its worktree or the checkout): its `HEAD` is the new commit's parent. */
  sourcePath: z.string().min(1).optional(),
});
export type WorktreeForkParams = z.infer<typeof WorktreeForkParamsSchema>;

export const WorktreeForkResultSchema = WorktreeCreateResultSchema.extend({
  /** The turn tree the worktree was made from (what its files equal, byte for byte). */
  tree: z.string(),
  /** The turn it is the end of. */
  turnId: z.string(),
});
export type WorktreeForkResult = z.infer<typeof WorktreeForkResultSchema>;

/**
 * `thread.fork_session`: the agent's own fork of a session at the end of a turn, where its provider has one
 * (pi: a new session file of the path to the turn's entry; an ACP agent offering `session/fork`: a fork of the
 * whole session, or at the turn's last message where the agent takes a fork point). The source session is only
 * read. `providerThreadId` null: this agent cannot fork there (the server then gives the fork's fresh session
 * the earlier conversation). A provider that failed to fork is a refusal (`agent_failed`), answered the same way.
 */
export const ForkSessionParamsSchema = z.strictObject({
  provider: z.string().min(1),
  /** The source's session (the `providerThreadId` of the turn's rows). */
  providerThreadId: z.string().min(1),
  /** The turn's `providerCheckpointId` when it is the agent's own, null when it only stands in for one (the turn id). */
  checkpointId: z.string().min(1).nullable(),
  /** No turn of the session came after this one: forking the whole session forks at the turn's end. */
  atSessionEnd: z.boolean().default(false),
  /** The fork's folder, for the agent's own records. */
  cwd: z.string().min(1),
});
/**
 * How long the server waits for `thread.fork_session`: an ACP agent's fork starts the agent for it (seconds, more
 * on a loaded machine: docs/fork.md), so longer than a host command's usual 15 s.
 */
export const FORK_SESSION_TIMEOUT_MS = 30_000;

export const ForkSessionResultSchema = z.strictObject({ providerThreadId: z.string().nullable() });

export const hostForkCommands = {
  'git.worktree_fork': { params: WorktreeForkParamsSchema, result: WorktreeForkResultSchema },
  'thread.fork_session': { params: ForkSessionParamsSchema, result: ForkSessionResultSchema },
} as const;
