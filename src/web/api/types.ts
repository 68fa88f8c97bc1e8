/** The shapes the page reads. Thread events come from src/protocol (type-only: nothing of it is bundled). */
export type { StoredThreadEvent, ThreadItem, TokenCounts, TurnStatus } from '../../protocol/threadEvents';

export interface Host {
  id: string;
  name: string;
  platform?: string;
  online: boolean;
  lastSeenAt?: string;
  providers: string[];
}

export interface Project {
  id: string;
  name: string;
  source: { type: 'local_path'; path: string; hostId: string };
  environmentId: string;
  createdAt: string;
}

export type DisplayStatus = 'active' | 'idle' | 'host-reconnecting' | 'waiting-for-host';

export interface Thread {
  id: string;
  projectId: string;
  hostId: string;
  provider: string;
  model: string;
  title: string;
  createdAt: string;
  status: 'active' | 'idle';
  runtime: { displayStatus: DisplayStatus; hostReconnectGraceExpiresAt: number | null };
  agentError?: { code: string; message: string; at: string };
}

/** One entry of a host's model catalog, as the page offers it. */
export interface ModelChoice {
  /** The option's value: agent and model together (two agents may offer the same model). */
  value: string;
  /** The agent provider (`POST /threads` `provider`), e.g. `pi`. */
  provider: string;
  /** What `POST /threads` takes as `model` (`provider/modelId`). */
  model: string;
  label: string;
  available: boolean;
}

/** Spec 2.7 (src/protocol/hostFiles.ts): `positions` are UTF-16 indexes into `name`. */
export interface PathEntry {
  kind: 'file' | 'directory';
  path: string;
  name: string;
  score: number;
  positions: number[];
}

export interface PathsAnswer {
  paths: PathEntry[];
  truncated: boolean;
}

/** `host.browse_directory`'s answer: one folder level, absolute paths. */
export interface BrowseDirectoryResult {
  path: string;
  entries: Array<{ kind: 'file' | 'directory'; name: string; path: string }>;
}

/** `POST /files/read`: `utf8` text as is, anything else base64. */
export interface ReadFileResult {
  content: string;
  encoding: 'utf8' | 'base64';
  sizeBytes: number;
  sha256: string;
}
