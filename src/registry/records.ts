import { z } from 'zod';
import { WorkspaceKindSchema, WorkspaceStateSchema } from '../protocol/hostGitCommands';
import { PullRequestSchema } from '../protocol/hostShipCommands';

/** Registry records as stored and as the API returns them (spec part 2: fields beyond the id are ours). */
export const ProjectRecordSchema = z.strictObject({
  id: z.string().regex(/^proj_/),
  name: z.string(),
  source: z.strictObject({ type: z.literal('local_path'), path: z.string(), hostId: z.string() }),
  /** The environment created for the project's own folder. */
  environmentId: z.string(),
  createdAt: z.string(),
  /** Where a new thread works when `POST /threads` does not say (issue 38); absent: `checkout`. */
  defaultWorkspace: WorkspaceKindSchema.optional(),
  /** The first part of a worktree thread's default branch, `<prefix>/<short id>-<slug>`; absent: `ats`. */
  branchPrefix: z.string().optional(),
  /** Run by the host in each new worktree of the project (its output becomes a row of the thread). */
  setupScript: z.string().optional(),
});
export type ProjectRecord = z.infer<typeof ProjectRecordSchema>;

export const HostRecordSchema = z.strictObject({
  id: z.string().regex(/^host_/),
  name: z.string(),
  platform: z.string(),
  protocolVersion: z.number().int(),
  providers: z.array(z.string()),
  /** Set when a link connects and refreshed when it drops; the live online flag comes from the links. */
  lastSeenAt: z.string(),
  /** A server's own (embedded) host: it holds no credential and cannot be removed (`DELETE /hosts/:id` 409). */
  embedded: z.boolean().optional(),
});
export type HostRecord = z.infer<typeof HostRecordSchema>;

/** A one-time enrollment code (issue 30), kept by the sha256 of the code, never the code itself. */
export const EnrollmentRecordSchema = z.strictObject({
  /** sha256 (hex) of the code. */
  id: z.string(),
  /** Epoch ms after which the code is refused. */
  expiresAt: z.number().int(),
  createdAt: z.string(),
});
export type EnrollmentRecord = z.infer<typeof EnrollmentRecordSchema>;

/**
 * What a host may attach with, by host id: the sha256 of its credential while it is enrolled; once removed
 * (`DELETE /hosts/:id`) only the time of that, so not even the server's token attaches it until it enrolls again.
 */
export const HostCredentialRecordSchema = z.strictObject({
  id: z.string().regex(/^host_/),
  keyHash: z.string().optional(),
  revokedAt: z.string().optional(),
  createdAt: z.string(),
});
export type HostCredentialRecord = z.infer<typeof HostCredentialRecordSchema>;

export const EnvironmentRecordSchema = z.strictObject({
  id: z.string().regex(/^env_/),
  hostId: z.string(),
  path: z.string(),
  createdAt: z.string(),
});
export type EnvironmentRecord = z.infer<typeof EnvironmentRecordSchema>;

/**
 * Where a thread's agent works (issue 38): the project's checkout, or a git worktree of its own. `path` is the
 * thread's folder; branch, base ref and base commit are a worktree's (null for a checkout or a detached one).
 */
export const WorkspaceSchema = z.strictObject({
  kind: WorkspaceKindSchema,
  path: z.string(),
  branch: z.string().nullable(),
  baseRef: z.string().nullable(),
  baseCommit: z.string().nullable(),
  state: WorkspaceStateSchema,
});
export type Workspace = z.infer<typeof WorkspaceSchema>;

export const ThreadRecordSchema = z.strictObject({
  id: z.string().regex(/^thr_/),
  projectId: z.string(),
  environmentId: z.string(),
  hostId: z.string(),
  provider: z.string(),
  model: z.string(),
  title: z.string(),
  permissionMode: z.string().optional(),
  /** Put away: no agent, prompts refused (409 `thread_archived`), left out of `GET /threads` unless asked for. */
  archived: z.boolean().optional(),
  /** The agent runs from the host's hello on and never closes for idleness (extensions with timers). */
  keepAgentRunning: z.boolean().optional(),
  /**
   * A delete began (`DELETE /threads/:id`) and has not finished: the thread is gone for every reader
   * (threadCollection.ts), and the next start finishes the delete (src/server/threads/deleteThread.ts).
   */
  deleting: z.literal(true).optional(),
  /** Known once the host opened the thread; the agent session id, or the thread id for intake-only threads. */
  providerThreadId: z.string().optional(),
  createdAt: z.string(),
  /**
   * Why the thread's agent last failed to run a prompt (no key, unknown model), until a prompt runs: the
   * thread's state a client sees in `GET /threads/:id`, beside the `provider/error` row.
   */
  agentError: z.strictObject({ code: z.string(), message: z.string(), at: z.string() }).optional(),
  /** Absent on threads from before issue 38: they work in their environment's folder (a checkout). */
  workspace: WorkspaceSchema.optional(),
  /** A fork (issue 39, docs/fork.md): the thread, its last row copied and the turn it continues after. */
  forkedFrom: z.strictObject({ threadId: z.string(), seq: z.number().int().nonnegative(), turnId: z.string().nullable() }).optional(),
  /**
   * Text the agent receives before the next prompt, once: a fork's earlier conversation for an agent that
   * starts a fresh session (docs/fork.md). Dropped from the record once a host took that prompt; never in a view.
   */
  pendingContext: z.string().optional(),
  /** The pull requests opened from the thread (issue 39), their state as last read from the forge. */
  pullRequests: z.array(PullRequestSchema).optional(),
});
export type ThreadRecord = z.infer<typeof ThreadRecordSchema>;

/**
 * A review comment on a thread's diff (issue 38): a line of a file on one side of the diff, with the lines it
 * points at as they were when it was written (`snippet`), so a later change to them shows it `stale`.
 */
export const ReviewCommentRecordSchema = z.strictObject({
  id: z.string().regex(/^rc_/),
  threadId: z.string().regex(/^thr_/),
  path: z.string(),
  line: z.number().int().positive(),
  side: z.enum(['new', 'old']),
  text: z.string(),
  snippet: z.string(),
  scope: z.enum(['uncommitted', 'branch', 'turn']),
  /** `stale` is never stored: it is how a draft reads once its lines changed. */
  state: z.enum(['draft', 'sent']),
  createdAt: z.string(),
});
export type ReviewCommentRecord = z.infer<typeof ReviewCommentRecordSchema>;
