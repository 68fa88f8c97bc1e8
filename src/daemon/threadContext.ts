import { HostCommandError } from '../protocol/hostErrors';
import type { ThreadOpenParams } from '../protocol/threadCommands';
import type { IngestOutcome } from '../ingest/threadIngest';
import type { PermissionMode } from '../protocol/approvals';
import type { EventStore } from '../store/eventStore';
import type { AllowedRoots } from '../files/allowedRoots';
import { createThreadSession, DEFAULT_AGENT_IDLE_MS, type ThreadSession, type ThreadSessionDeps } from './agentLifecycle/threadSession';
import type { ThreadTable } from './agentLifecycle/threadTable';

export interface ThreadHandlerDeps extends Omit<ThreadSessionDeps, 'agentIdleMs' | 'closing'> {
  /** The daemon's one record per thread (hostDaemon makes it: the ingest reads it too). */
  table: ThreadTable;
  /** Where the rows are (a delete names the session of a thread this daemon never opened by its last row). */
  store: EventStore;
  /** The host owner's `allowFullAccess` setting: without it `full-access` is refused `mode_not_allowed`. */
  allowFullAccess?: boolean;
  /** The folders the host's owner allows: a thread whose folder (`cwd`) is outside is refused `root_not_allowed`. */
  allowed?: AllowedRoots;
  /** `ATS_AGENT_IDLE_MS`: an agent with no open turn and no pending question closes after this long. */
  agentIdleMs?: number;
}

/** What the thread handlers share: the table, and the few steps each of them takes. */
export interface ThreadContext {
  deps: ThreadHandlerDeps;
  table: ThreadTable;
  /** Pushes one frame through the pipeline and answers the seqs it stored (or throws the ingest's error). */
  ingestFrame(frame: unknown, threadId: string | undefined): Promise<number[]>;
  /** The thread's session, or `thread_not_open`. */
  sessionOf(threadId: string): ThreadSession;
  /** The thread's session, opened now when it is not yet. */
  openSession(params: ThreadOpenParams): ThreadSession;
  /** Refuses `full-access` on a host whose owner did not allow it. */
  requireAllowed(mode: PermissionMode | undefined): void;
}

export function createThreadContext(deps: ThreadHandlerDeps): ThreadContext {
  const { table } = deps;
  const sessionDeps: ThreadSessionDeps = { ...deps, agentIdleMs: deps.agentIdleMs ?? DEFAULT_AGENT_IDLE_MS, closing: table.closing };
  return {
    deps,
    table,
    async ingestFrame(frame, threadId) {
      const seqs = seqsOf(await deps.ingest.ingest(frame, threadId));
      if (threadId) table.session(threadId)?.idle.touch();
      return seqs;
    },
    sessionOf(threadId) {
      const session = table.session(threadId);
      if (!session) throw new HostCommandError('thread_not_open', `thread ${threadId} is not open on this host`);
      return session;
    },
    openSession(params) {
      const record = table.recordOf(params.threadId);
      if (record.session) return record.session;
      if (params.resumeProviderThreadId !== undefined) record.providerThreadId = params.resumeProviderThreadId;
      return (record.session = createThreadSession(sessionDeps, params, record));
    },
    requireAllowed(mode) {
      if (mode === 'full-access' && !deps.allowFullAccess) {
        throw new HostCommandError(
          'mode_not_allowed',
          'this host does not allow full-access threads; its owner turns them on with ATS_ALLOW_FULL_ACCESS=1 (a remote daemon: --allow-full-access 1)',
        );
      }
    },
  };
}

/** The ingest's own JSON-RPC error (code, message, zod issue path) travels back unchanged. */
function seqsOf(outcome: IngestOutcome): number[] {
  if (outcome.ok) return outcome.rows.map((row) => row.seq);
  throw new HostCommandError('ingest_rejected', outcome.error.message, outcome.error.data, outcome.error.code);
}
