import type { operations } from './openapi';

/**
 * The shapes the page reads, named from the server's OpenAPI document (`openapi.d.ts`). Thread events come
 * from src/protocol (type-only: nothing of it is bundled), which is where the document's own come from.
 */
import type { StoredThreadEvent } from '../../protocol/threadEvents';
export type { PlanStep, StoredThreadEvent, ThreadItem, TokenCounts, TurnStatus } from '../../protocol/threadEvents';

type RowData<Type extends StoredThreadEvent['type']> = Extract<StoredThreadEvent, { type: Type }>['data'];
/** An agent's question (src/protocol/approvals.ts), as its `approval/requested` row carries it. */
export type ApprovalRequest = RowData<'approval/requested'>;
/** The answer to it, as its `approval/resolved` row carries it. */
export type ApprovalResolution = RowData<'approval/resolved'>;
export type PermissionMode = ApprovalRequest['permissionMode'];
/** The fields a `thread/updated` row carries: only those that changed (rename, archive, keep-running, mode). */
export type ThreadUpdate = Pick<RowData<'thread/updated'>, 'title' | 'archived' | 'keepAgentRunning' | 'permissionMode'>;
/** What `PATCH /threads/:id` takes: any of the fields a `thread/updated` row may say changed. */
export type ThreadPatch = ThreadUpdate;
/** Whether the thread's agent process is up (issue 28: agents start on demand and stop when idle). */
export type AgentState = 'stopped' | 'starting' | 'running';
/** The lifecycle fields of a thread's view, read leniently: a server before issue 28 sends none. */
export interface ThreadLifecycle {
  archived?: boolean;
  keepAgentRunning?: boolean;
  agent?: AgentState;
}

type Ok<Operation extends keyof operations, Status extends number = 200> =
  operations[Operation]['responses'] extends Record<Status, { content: { 'application/json': infer Body } }> ? Body : never;

export type Host = Ok<'getHosts'>[number];
export type Project = Ok<'getProjects'>[number];
/** A thread's pull requests (issue 39), read leniently too: a server before it sends none. */
type ThreadView = Ok<'getThreads'>[number];
export type PullRequest = ThreadView['pullRequests'][number];
export type Thread = Omit<ThreadView, 'pullRequests'> & ThreadLifecycle & { pullRequests?: PullRequest[] };
export type PathsAnswer = Ok<'getProjectsByIdPaths'>;
export type PathEntry = PathsAnswer['paths'][number];
export type BrowseDirectoryResult = Ok<'getHostsByIdDirectories'>;
export type ReadFileResult = Ok<'postFilesRead'>;
export type ModelsAnswer = Ok<'getHostsByIdModels'>;

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
