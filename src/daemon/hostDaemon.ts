import { createForkSessionHandler } from './agentLifecycle/forkSessionHandler';
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
import { withUndoneNotice } from './git/rewind/rewindWing';
import { createAgentRewind, NO_AGENT_REWIND, type AgentRewind } from './git/rewind/agentRewind';
import type { HostIdentity } from './hostIdentity';
import { createProviderRegistry } from './providerRegistry';
import type { AgentProvider } from './providers/agentProvider';
import { createThreadTable } from './agentLifecycle/threadTable';
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
  /** `ATS_AGENT_START_TIMEOUT_MS`: how long an agent's start may take before it fails (DEFAULT_AGENT_START_TIMEOUT_MS). */
  agentStartTimeoutMs?: number;
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
  // Git worktrees, diffs and the trees at each turn's edges (docs/worktrees.md): the store is tapped for turn rows.
  // A revert and the ship commands write their own rows through the thread handlers' ingest, made below (bound once they exist).
  let ingestFrame = (_frame: unknown): Promise<unknown> => Promise.reject(new Error('the thread handlers are not made yet'));
  const threadLog = {
    list: deps.store.list.bind(deps.store),
    lastSeq: deps.store.lastSeq.bind(deps.store),
    ingest: (frame: unknown) => ingestFrame(frame),
  };
  // The agent's conversation moves with a revert (pi); the table and the close are bound once they exist, below.
  let agentRewind: AgentRewind = NO_AGENT_REWIND;
  const agent: AgentRewind = { rewind: (...args) => agentRewind.rewind(...args) };
  const git = createGitWing({ dataDir: deps.dataDir, log, threadLog, agent });
  const store = recordingTurnsOf(deps.store, git.turns);
  // One record per thread (issue 37): the ingest reads it, the thread handlers own it, the close ends it.
  const table = createThreadTable();
  const ingest = deps.createIngest({
    store,
    ...table.lookups,
    ...(deps.turnGraceMs === undefined ? {} : { turnGraceMs: deps.turnGraceMs }),
  });
  const threads = createThreadHandlers({
    table,
    ingest,
    providers,
    dataDir: deps.dataDir,
    allowFullAccess: deps.allowFullAccess ?? false,
    allowed,
    store,
    ...(deps.agentIdleMs === undefined ? {} : { agentIdleMs: deps.agentIdleMs }),
    ...(deps.agentStartTimeoutMs === undefined ? {} : { agentStartTimeoutMs: deps.agentStartTimeoutMs }),
    ...(deps.turnGraceMs === undefined ? {} : { turnGraceMs: deps.turnGraceMs }),
    log,
  });
  const { dispose, ...threadHandlers } = threads;
  ingestFrame = (frame) => threadHandlers['thread.ingest']({ frame });
  agentRewind = createAgentRewind({
    table,
    dataDir: deps.dataDir,
    closeAgent: (threadId) => threadHandlers['thread.close_agent']({ threadId }),
    log,
  });
  const dispatch = createHostDispatcher(
    {
      ...createHostFileHandlers(deps.files, allowed),
      ...withUndoneNotice(withTurnTrees(threadHandlers, git.turns), { dataDir: deps.dataDir, threadLog }),
      ...createModelHandlers(providers),
      ...git.handlers,
      ...createForkSessionHandler({ providers, dataDir: deps.dataDir }),
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
