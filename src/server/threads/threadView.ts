import type { HostPresence } from '../hosts/hostPresence';
import { z } from 'zod';
import { AgentStateSchema } from '../../protocol/threadCommands';
import { ThreadStatusSchema, TurnStatusSchema, type ThreadStatus } from '../../protocol/threadEvents';
import { PullRequestSchema } from '../../protocol/hostShipCommands';
import { ThreadRecordSchema, WorkspaceSchema, type ThreadRecord } from '../../registry/records';
import type { Registry } from '../../registry/registry';
import { workspaceOfThread } from '../workspaces/workspaceOfThread';
import type { EventStore } from '../../store/eventStore';
import type { HostDirectory } from '../hosts/hostDirectory';
import { storedThreadState } from './storedThreadStatus';

/** What the agent is doing, for a list that marks threads needing their user (issue 27). */
export const ThreadActivitySchema = z.enum(['idle', 'working', 'waiting-for-approval']);
export type ThreadActivity = z.infer<typeof ThreadActivitySchema>;

/** Spec 2.4: `status` from the daemon's ingest, `runtime` for display. A thread being deleted has no view. */
export const ThreadViewSchema = ThreadRecordSchema.omit({ deleting: true, pendingContext: true }).extend({
  /** Put away (issue 28): prompts answer 409 `thread_archived`; `GET /threads` lists it only with `?archived=true`. */
  archived: z.boolean(),
  /** Its agent runs from its host's hello on and never closes for idleness. */
  keepAgentRunning: z.boolean(),
  /** Where its agent works (issue 38): the project's checkout or a worktree of its own, and that worktree's state. */
  workspace: WorkspaceSchema,
  /** The pull requests opened from it (issue 39), oldest first, with their state as the host last read it. */
  pullRequests: z.array(PullRequestSchema),
  /** The thread's agent process on its host; `stopped` while the host is away. */
  agent: AgentStateSchema,
  status: ThreadStatusSchema,
  /**
   * How the thread's last turn ended (`completed`, `failed`, `interrupted`); null while a turn is open or
   * before the first. A list marks a thread whose last prompt failed (issue 29), e.g. one the agent could not take.
   */
  lastTurnStatus: TurnStatusSchema.nullable(),
  runtime: z.strictObject({
    /** `active` while a turn is open, even while it waits for an answer (spec 2.4); the host's absence otherwise. */
    displayStatus: z.string(),
    hostReconnectGraceExpiresAt: z.number().nullable(),
    activity: ThreadActivitySchema,
    /** The agent's unanswered questions, oldest first: answer one with `POST …/approvals/:approvalId`. */
    pendingApprovalIds: z.array(z.string()),
  }),
});
export type ThreadView = z.infer<typeof ThreadViewSchema>;

/**
 * While its host is connected, status comes from the host's pipeline, which knows whether a turn is open.
 * While the host is away, the rows it stored say it (they reach this server's store through the link, and
 * survive a server restart); `displayStatus` then says `host-reconnecting` during the reconnect grace,
 * `waiting-for-host` after it (src/server/hosts/hostPresence.ts), or at once when the host was removed.
 */
export function createThreadViewer(
  hosts: HostDirectory,
  store: EventStore,
  presence: HostPresence | undefined,
  registry: Pick<Registry, 'environments'>,
): (thread: ThreadRecord) => Promise<ThreadView> {
  return async ({ deleting: _deleting, pendingContext: _context, ...record }) => {
    const thread = {
      ...record,
      archived: record.archived ?? false,
      keepAgentRunning: record.keepAgentRunning ?? false,
      workspace: await workspaceOfThread(registry, record),
      pullRequests: record.pullRequests ?? [],
    };
    if (!hosts.isOnline(thread.hostId)) {
      const { status, pendingApprovalIds, lastTurnStatus } = await storedThreadState(store, thread.id);
      // A removed host (DELETE /hosts/:id) is not coming back until someone enrolls it again: no grace.
      const away =
        presence && (await hosts.get(thread.hostId))
          ? presence.runtimeOf(thread.hostId, false, status)
          : { displayStatus: 'waiting-for-host', hostReconnectGraceExpiresAt: null };
      return { ...thread, agent: 'stopped', status, lastTurnStatus, runtime: { ...away, ...activityOf(status, pendingApprovalIds) } };
    }
    const { status, agent, pendingApprovalIds, lastTurnStatus } = await hosts.call(thread.hostId, 'thread.status', { threadId: thread.id });
    const runtime = { displayStatus: status, hostReconnectGraceExpiresAt: null, ...activityOf(status, pendingApprovalIds) };
    return { ...thread, agent, status, lastTurnStatus, runtime };
  };
}

function activityOf(status: ThreadStatus, pendingApprovalIds: string[]) {
  const activity: ThreadActivity = pendingApprovalIds.length > 0 ? 'waiting-for-approval' : status === 'active' ? 'working' : 'idle';
  return { activity, pendingApprovalIds };
}
