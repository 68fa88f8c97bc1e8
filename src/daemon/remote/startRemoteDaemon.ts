import path from 'node:path';
import { createHostDaemon, type HostDaemon } from '../hostDaemon';
import type { HostFileOperations } from '../hostFileHandlers';
import { identityFileOf, loadHostIdentity } from '../hostIdentity';
import { localHostFiles, pathListerOptionsOf } from '../localHostFiles';
import type { AgentProvider } from '../providers/agentProvider';
import { createThreadIngest } from '../../ingest/threadIngest';
import { readTrustedCa } from '../../link/tlsTrust';
import { LOCK_FILE_NAME, lockDataDir } from '../../store/dataDirLock';
import { CA_SETTING, createDaemonLinkClient, type DaemonLinkClient, type LinkRefused } from './daemonLinkClient';
import { OUTBOX_FILE_NAME, openOutbox } from './outbox';
import { keepFilesPrivate, makePrivateDataDir } from './privateDataDir';

import { createRemoteEventStore } from './remoteEventStore';
import { linkCredentialOf } from './linkCredential';

/** What a remote daemon needs of its settings; `src/config/daemonConfig.ts` reads them from flags and env. */
export interface RemoteDaemonSettings {
  server: string;
  /** A PEM CA file trusted instead of the system's CAs for an https server. */
  ca?: string;
  /** A one-time enrollment code to trade for this host's credential (issue 30). */
  enroll?: string;
  /** Deprecated: the server's token, used only when this host holds no credential of its own. */
  token?: string;
  name: string;
  dataDir: string;
  heartbeatMs?: number;
  reconnectInitialMs: number;
  reconnectMaxMs: number;
  maxPayloadBytes: number;
  storeRetryMs: number;
  protocolVersion: number;
  turnGraceMs?: number;
  /** How long an agent with no open turn and no pending question stays up (default 10 minutes). */
  agentIdleMs?: number;
  /** How long an agent's start may take before it fails (default: one minute). */
  agentStartTimeoutMs?: number;
  /** The path lister's watch (default: watch, 5 min idle) and its debug log (default: off). */
  pathWatchIdleMs?: number;
  debug?: boolean;
  /** Threads on this host may use the `full-access` permission mode (default: off). */
  allowFullAccess?: boolean;
  /** The only folders this host exposes (`--allow-root`); unset: every folder. */
  allowRoot?: readonly string[];
}

export interface RemoteDaemonOptions {
  config: RemoteDaemonSettings;
  providers?: readonly AgentProvider[];
  /** Overrides this machine's file commands (tests). */
  files?: HostFileOperations;
  log?(message: string): void;
}

export interface RunningRemoteDaemon {
  hostId: string;
  daemon: HostDaemon;
  link: DaemonLinkClient;
  /** Settles when the server refuses this daemon for good; the caller should stop it and exit. */
  refused: Promise<LinkRefused>;
  close(): Promise<void>;
}

/**
 * A host daemon on another machine: the same daemon as the embedded one (src/daemon), with the WebSocket
 * link as transport and the server's store behind the link as its EventStore.
 */
export async function startRemoteDaemon(options: RemoteDaemonOptions): Promise<RunningRemoteDaemon> {
  const { config } = options;
  const log = options.log ?? ((message: string) => console.error(message));
  const ca = config.ca === undefined ? undefined : await readTrustedCa(path.resolve(config.ca), CA_SETTING);
  await makePrivateDataDir(config.dataDir, log);
  // One daemon per data dir: two would share a host id and an outbox.
  const lock = await lockDataDir(config.dataDir);
  const identity = await loadHostIdentity(config.dataDir, config.name);
  const credential = await linkCredentialOf({ ...config, trustedCa: ca }, identity.hostId, log).catch(async (error: unknown) => {
    await lock.release();
    throw error;
  });
  const outbox = await openOutbox(config.dataDir);
  await keepFilesPrivate(config.dataDir, [path.basename(identityFileOf(config.dataDir)), LOCK_FILE_NAME, OUTBOX_FILE_NAME]);
  const link = createDaemonLinkClient({
    serverUrl: config.server,
    ca,
    token: credential.bearer,
    refused: credential.refused,
    heartbeatMs: config.heartbeatMs,
    reconnect: { initialMs: config.reconnectInitialMs, maxMs: config.reconnectMaxMs },
    maxPayloadBytes: config.maxPayloadBytes,
    identityFile: identityFileOf(config.dataDir),
    log,
  });
  const store = createRemoteEventStore({ link, outbox, retryMs: config.storeRetryMs, log });
  const daemon = createHostDaemon({
    identity,
    dataDir: config.dataDir,
    store,
    providers: options.providers ?? [],
    files: options.files ?? localHostFiles(pathListerOptionsOf(config, log)),
    createIngest: createThreadIngest,
    allowFullAccess: config.allowFullAccess ?? false,
    allowRoots: config.allowRoot,
    ...(config.turnGraceMs === undefined ? {} : { turnGraceMs: config.turnGraceMs }),
    ...(config.agentIdleMs === undefined ? {} : { agentIdleMs: config.agentIdleMs }),
    ...(config.agentStartTimeoutMs === undefined ? {} : { agentStartTimeoutMs: config.agentStartTimeoutMs }),
    log,
  });
  link.start({ hello: { ...daemon.hello, protocolVersion: config.protocolVersion }, dispatch: daemon.dispatch });

  let closing: Promise<void> | undefined;
  return {
    hostId: identity.hostId,
    daemon,
    link,
    refused: link.refused,
    close: () =>
      (closing ??= (async () => {
        await link.close();
        await daemon.close();
        await store.close();
        outbox.close();
        await lock.release();
      })()),
  };
}
