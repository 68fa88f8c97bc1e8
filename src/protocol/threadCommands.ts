import { z } from 'zod';
import { ApprovalOptionKindSchema, PermissionModeSchema } from './approvals';
import { ThreadStatusSchema, TurnStatusSchema } from './threadEvents';

/**
 * Thread commands of the host-daemon contract. The daemon runs the agent and the thread-event pipeline
 * (spec part 9: translation lives in the daemon); the server only names the thread and forwards input.
 */
const ThreadId = z.string().regex(/^thr_/, 'a thread id starts with thr_');
const Seqs = z.strictObject({ seqs: z.array(z.number().int().positive()) });

/**
 * Idempotent: opening an open thread answers with the same providerThreadId. When the daemon runs the thread's
 * provider, opening starts the agent (its extensions load and may start turns on their own) and answers
 * once it runs; the server opens a thread when it is created and again whenever its host comes online.
 */
export const ThreadOpenParamsSchema = z.strictObject({
  threadId: ThreadId,
  cwd: z.string().min(1),
  provider: z.string().min(1),
  model: z.string().min(1),
  permissionMode: PermissionModeSchema.optional(),
  /** The thread's providerThreadId from an earlier run, so an agent session resumes after a restart. */
  resumeProviderThreadId: z.string().optional(),
  /**
   * Start the agent now and never close it for idleness (pi extensions with timers or watchers). Without it an
   * agent starts only when a prompt (or a turn to restore) needs it, and closes after `ATS_AGENT_IDLE_MS`.
   */
  keepAgentRunning: z.boolean().optional(),
});
export type ThreadOpenParams = z.infer<typeof ThreadOpenParamsSchema>;
export const ThreadOpenResultSchema = z.strictObject({
  providerThreadId: z.string(),
  /**
   * False when the daemon has no AgentProvider with that id: the thread takes events only from the intake
   * (and `providerThreadId` is the server's hint, else the thread id). True: `providerThreadId` is the running
   * agent's session id, unless the agent could not start (logged by the daemon; the next prompt retries and
   * answers `agent_failed`), in which case it is what it was before.
   */
  agent: z.boolean(),
});
export type ThreadOpenResult = z.infer<typeof ThreadOpenResultSchema>;

export const ThreadPromptParamsSchema = z.strictObject({
  threadId: ThreadId,
  prompt: z.string().min(1),
  /**
   * When the agent must start first, answer by then (`starting: true`) and let the start and the prompt go on:
   * the server sets it below its command timeout, so a slow start is not a 504. Absent: answer once the agent
   * took the prompt.
   */
  answerWithinMs: z.number().int().positive().optional(),
});
export type ThreadPromptParams = z.infer<typeof ThreadPromptParamsSchema>;
export const ThreadPromptResultSchema = z.strictObject({
  /** True when a turn was already running, so the agent queued the prompt as a follow-up. */
  followUp: z.boolean(),
  /** The agent's session id (as `thread.open` answered, unless the agent had to be started again). */
  providerThreadId: z.string(),
  /**
   * True when answered before the agent was up (`answerWithinMs`): `providerThreadId` is the one known before
   * the start, and the turn's rows name the session. A start that fails then is the prompt's failed turn.
   */
  starting: z.boolean().optional(),
});
export type ThreadPromptResult = z.infer<typeof ThreadPromptResultSchema>;

/** The host command `thread.stop` the server sends (strict; a `thr_` id). The daemon turns it into the stop signal (signals.ts). */
export const ThreadStopParamsSchema = z.strictObject({ threadId: ThreadId });
export type ThreadStopParams = z.infer<typeof ThreadStopParamsSchema>;
/** Seqs stored by the stop itself (the `interrupted` turn/completed when no run was streaming). */
export const ThreadStopResultSchema = Seqs;

export const ThreadIngestParamsSchema = z.strictObject({
  /** One JSON-RPC frame for the pipeline: `sdk/message`, `<providerId>/prompt/settled`, … */
  frame: z.unknown(),
  /** The thread's providerThreadId as the registry knows it, for threads this daemon has not opened yet. */
  providerThreadId: z.string().optional(),
});
export type ThreadIngestParams = z.infer<typeof ThreadIngestParamsSchema>;
export const ThreadIngestResultSchema = Seqs;
export type ThreadIngestResult = z.infer<typeof ThreadIngestResultSchema>;

export const ThreadStatusParamsSchema = z.strictObject({ threadId: ThreadId });
/** The thread's agent process on its host: none (`stopped`), being started, or up. */
export const AgentStateSchema = z.enum(['stopped', 'starting', 'running']);
export type AgentState = z.infer<typeof AgentStateSchema>;

export const ThreadStatusResultSchema = z.strictObject({
  status: ThreadStatusSchema,
  agent: AgentStateSchema,
  /** Questions of the open turn no one has answered yet (approvals.ts), oldest first. */
  pendingApprovalIds: z.array(z.string()),
  /** How the last turn ended; null while one is open or before any (issue 29: a list marks a failed one). */
  lastTurnStatus: TurnStatusSchema.nullable(),
});
export type ThreadStatusResult = z.infer<typeof ThreadStatusResultSchema>;

/**
 * The user's answer to an agent's question (`POST /threads/:id/approvals/:approvalId`). `answered`: the agent
 * has it; `unknown`: this daemon never asked it (404); `already-answered`: someone (the user, a stop) did (409).
 */
export const ThreadApproveParamsSchema = z.strictObject({ threadId: ThreadId, approvalId: z.string().min(1), optionId: z.string().min(1) });
export type ThreadApproveParams = z.infer<typeof ThreadApproveParamsSchema>;
export const ThreadApproveResultSchema = z.discriminatedUnion('outcome', [
  z.strictObject({ outcome: z.literal('answered'), optionId: z.string(), optionKind: ApprovalOptionKindSchema }),
  z.strictObject({ outcome: z.literal('unknown') }),
  z.strictObject({ outcome: z.literal('already-answered') }),
  /** The option id is not one the agent offered (400). */
  z.strictObject({ outcome: z.literal('unknown-option'), optionIds: z.array(z.string()) }),
]);
export type ThreadApproveResult = z.infer<typeof ThreadApproveResultSchema>;

/** Changes an open thread's permission mode while no turn is open; the agent's own mode follows where it has one. */
export const ThreadConfigureParamsSchema = z.strictObject({ threadId: ThreadId, permissionMode: PermissionModeSchema });
export type ThreadConfigureParams = z.infer<typeof ThreadConfigureParamsSchema>;
export const ThreadConfigureResultSchema = z.strictObject({ permissionMode: PermissionModeSchema });

/** Keeps (or stops keeping) the thread's agent running regardless of idleness; starts it when turned on. */
export const ThreadKeepRunningParamsSchema = z.strictObject({ threadId: ThreadId, keepAgentRunning: z.boolean() });
export const ThreadKeepRunningResultSchema = z.strictObject({ agent: AgentStateSchema });

/**
 * Closes the thread's agent now if it runs (an archive; an idle close does the same by itself), after stopping
 * an open turn (its seqs answered) and cancelling open questions. The thread stays open: a later prompt starts
 * the agent again on the same session.
 */
export const ThreadCloseAgentParamsSchema = z.strictObject({ threadId: ThreadId });
export const ThreadCloseAgentResultSchema = Seqs;

/**
 * Forgets a thread on its host: an open turn is stopped first (its `interrupted` turn/completed is stored, and
 * its seqs answered, before the rows go), open questions are cancelled, the agent is closed and the provider's
 * session files are removed. The server removes the rows and the record. Idempotent: an unknown thread is done.
 * The server names the session it knows of (`providerThreadId`, `provider`): a host that was offline at the
 * delete is told at its next hello, when the thread's rows, which also name it, are gone.
 */
export const ThreadDeleteParamsSchema = z.strictObject({
  threadId: ThreadId,
  provider: z.string().optional(),
  providerThreadId: z.string().optional(),
});
export const ThreadDeleteResultSchema = Seqs;

export const threadCommands = {
  'thread.open': { params: ThreadOpenParamsSchema, result: ThreadOpenResultSchema },
  'thread.prompt': { params: ThreadPromptParamsSchema, result: ThreadPromptResultSchema },
  'thread.stop': { params: ThreadStopParamsSchema, result: ThreadStopResultSchema },
  'thread.ingest': { params: ThreadIngestParamsSchema, result: ThreadIngestResultSchema },
  'thread.status': { params: ThreadStatusParamsSchema, result: ThreadStatusResultSchema },
  'thread.approve': { params: ThreadApproveParamsSchema, result: ThreadApproveResultSchema },
  'thread.configure': { params: ThreadConfigureParamsSchema, result: ThreadConfigureResultSchema },
  'thread.keep_running': { params: ThreadKeepRunningParamsSchema, result: ThreadKeepRunningResultSchema },
  'thread.close_agent': { params: ThreadCloseAgentParamsSchema, result: ThreadCloseAgentResultSchema },
  'thread.delete': { params: ThreadDeleteParamsSchema, result: ThreadDeleteResultSchema },
} as const;
