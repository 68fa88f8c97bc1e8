import os from 'node:os';
import type { EventStore } from '../store/eventStore';
import type { HostHello } from '../protocol/hostContract';
import { createHostDispatcher, type HostDispatcher } from './hostDispatcher';
import { createHostFileHandlers, type HostFileOperations } from './hostFileHandlers';
import { allowedRoots } from '../files/allowedRoots';
import { createModelHandlers } from './modelHandlers';
import { createGitWing } from './git/gitHandlers';
import { recordingTurnsOf } from './git/turns/turnRecordingStore';
import { withTurnTrees } from './git/turns/withTurnTrees';
import type { HostIdentity } from './hostIdentity';
import { createProviderRegistry } from './providerRegistry';
import type { AgentProvider, AgentThread } from './providers/agentProvider';
import { HOST_DAEMON_PROTOCOL_VERSION } from '../protocol/protocolVersion';
import { createThreadHandlers } from './threadHandlers';
import type { ThreadIngest } from '../ingest/threadIngest';

export interface HostDaemonDeps {
  identity: HostIdentity;
  /** The daemon's own folder (agent sessions); not the server's. */
  dataDir: string;
  /** Where the pipeline stores rows: the server's store for the embedded daemon, a link-backed one remotely. */
  store: EventStore;
  providers: readonly AgentProvider[];
  files: HostFileOperations;
  createIngest(deps: {
    store: EventStore;
    providerThreadIdFor(threadId: string): string;
    contextWindowFor(threadId: string): number | undefined;
    checkpointIdFor(threadId: string): string | undefined;
    providerIdFor(threadId: string): string | undefined;
    turnGraceMs?: number;
  }): ThreadIngest;
  /** How long a stop or a failed settle waits for the run's `agent_end` (the ingest's default when unset). */
  turnGraceMs?: number;
  /** The owner's `allowFullAccess` setting: threads may use the `full-access` permission mode. Default off. */
  allowFullAccess?: boolean;
  /**
   * The owner's `--allow-root` / `ATS_ALLOW_ROOTS`: the only folders this host's commands reach (files,
   * listings, a thread's folder). Unset: every folder.
   */
  allowRoots?: readonly string[];
  /** `ATS_AGENT_IDLE_MS`: an agent with no open turn and no pending question closes after this long (default 10 min). */
  agentIdleMs?: number;
  log?(message: string): void;
}

/** A host daemon without a transport: a hello and a dispatcher of contract requests. */
export interface HostDaemon {
  readonly hello: HostHello;
  readonly dispatch: HostDispatcher;
  close(): Promise<void>;
}

export function createHostDaemon(deps: HostDaemonDeps): HostDaemon {
  const log = deps.log ?? ((message: string) => console.error(message));
  const providers = createProviderRegistry(deps.providers);
  const allowed = allowedRoots(deps.allowRoots);
  const providerThreadIds = new Map<string, string>();
  const agents = new Map<string, AgentThread>();
  const providerIds = new Map<string, string>();
  // Git worktrees, diffs and the trees at each turn's edges (docs/worktrees.md): the store is tapped for turn rows.
  const git = createGitWing({ dataDir: deps.dataDir, log });
  const store = recordingTurnsOf(deps.store, git.turns);
  const ingest = deps.createIngest({
    store,
    // Threads nobody opened here (intake-only) use their own id, so rows always name a providerThreadId.
    providerThreadIdFor: (threadId) => providerThreadIds.get(threadId) ?? threadId,
    contextWindowFor: (threadId) => agents.get(threadId)?.contextWindow?.(),
    // Read synchronously while the frame that closes a turn (the run's agent_end) passes the pipeline; pi has
    // stored the run's last message by then and nothing newer (docs/pi.md "Sessions … checkpoints").
    checkpointIdFor: (threadId) => agents.get(threadId)?.checkpointId?.(),
    // provider/unhandled rows name the thread's agent (a host may run pi, claude and codex side by side).
    providerIdFor: (threadId) => providerIds.get(threadId),
    ...(deps.turnGraceMs === undefined ? {} : { turnGraceMs: deps.turnGraceMs }),
  });
  const threads = createThreadHandlers({
    ingest,
    providers,
    dataDir: deps.dataDir,
    providerThreadIds,
    agents,
    providerIds,
    allowFullAccess: deps.allowFullAccess ?? false,
    allowed,
    store,
    ...(deps.agentIdleMs === undefined ? {} : { agentIdleMs: deps.agentIdleMs }),
    ...(deps.turnGraceMs === undefined ? {} : { turnGraceMs: deps.turnGraceMs }),
    log,
  });
  const { dispose, ...threadHandlers } = threads;
  const dispatch = createHostDispatcher(
    {
      ...createHostFileHandlers(deps.files, allowed),
      ...withTurnTrees(threadHandlers, git.turns),
      ...createModelHandlers(providers),
      ...git.handlers,
    },
    log,
  );
  return {
    hello: {
      protocolVersion: HOST_DAEMON_PROTOCOL_VERSION,
      hostId: deps.identity.hostId,
      name: deps.identity.name,
      platform: `${os.platform()}-${os.arch()}`,
      providers: providers.ids(),
    },
    dispatch,
    async close() {
      await dispose();
      await ingest.close();
      await git.close();
      await deps.files.close?.();
    },
  };
}
