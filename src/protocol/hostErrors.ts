import { z } from 'zod';

/**
 * JSON-RPC error code of a host command that ran and refused (missing file, not a directory…). The reason is
 * in `error.data.hostCode`, so a caller maps it without parsing messages. Chosen from the implementation-
 * defined server range (-32000…-32099).
 */
export const HOST_COMMAND_FAILED = -32000;

/** Why a host command refused: the one list. File commands use the first six and `root_not_allowed`; thread commands the rest. */
export const HostErrorCodeSchema = z.enum([
  'invalid_params',
  'not_found',
  'not_a_file',
  'not_a_directory',
  'too_large',
  'forbidden',
  'thread_not_open',
  'no_agent_provider',
  'agent_failed',
  'ingest_rejected',
  /** `thread.configure` while a turn is open: the mode changes only between turns. */
  'thread_busy',
  /** A prompt to an archived thread: unarchive it first (`PATCH /threads/:id {"archived": false}`). */
  'thread_archived',
  /** A permission mode the host's owner did not allow (`full-access` without `ATS_ALLOW_FULL_ACCESS=1`). */
  'mode_not_allowed',
  /** A folder outside the ones the host's owner allows (`--allow-root`, `ATS_ALLOW_ROOTS`). */
  'root_not_allowed',
  /** The daemon is closing: it starts no agent it could not dispose of. */
  'host_closing',
  /** `workspace: "worktree"` for a project whose folder is not in a git repository (issue 38). */
  'not_a_git_repository',
  /** A branch name `git check-ref-format --branch` refuses. */
  'invalid_branch',
  /** A `baseRef` git cannot resolve to a commit. */
  'unknown_ref',
  /** Git itself failed (its own words in the message). */
  'git_failed',
  /** `git.unrevert` with no revert of the thread left to undo (issue 39). */
  'nothing_to_unrevert',
  /** `git.unrevert` after the files changed since the revert: bringing the old state back would lose them. */
  'changed_since_revert',
  /** A commit with no change to commit (issue 39). */
  'nothing_to_commit',
  /** A push or pull request from a detached `HEAD`: there is no branch to push. */
  'no_branch',
  /** A push to a remote the repository does not have. */
  'no_remote',
  /** The remote refused the push (not a fast-forward, a protected branch, a hook): git's words in the message. */
  'push_rejected',
  /** The remote wants credentials the host does not have (prompts are off: it never waits for one). */
  'auth_failed',
  /** A push or forge command that did not end within its timeout; it was killed. */
  'git_timeout',
  /** No `gh` / `glab` on the host, or not logged in: the message says what to install or run. */
  'forge_cli_unavailable',
  /** The forge CLI ran and failed (its own words in the message). */
  'forge_failed',
]);
export type HostErrorCode = z.infer<typeof HostErrorCodeSchema>;

export const HostErrorDataSchema = z.object({ hostCode: HostErrorCodeSchema, details: z.unknown().optional() });
export type HostErrorData = z.infer<typeof HostErrorDataSchema>;

/**
 * Suggested HTTP status per code, for the server's problem+json mapping (problem `code` = the host code).
 * `host_closing` has none: a caller sees it as any other host failure, 502 `host_error`.
 */
export const HOST_ERROR_HTTP_STATUS: Readonly<Record<Exclude<HostErrorCode, 'host_closing'>, number>> = {
  invalid_params: 400,
  not_found: 404,
  not_a_file: 409,
  not_a_directory: 409,
  too_large: 413,
  forbidden: 403,
  thread_not_open: 409,
  no_agent_provider: 409,
  agent_failed: 502,
  ingest_rejected: 400,
  thread_busy: 409,
  thread_archived: 409,
  mode_not_allowed: 403,
  root_not_allowed: 403,
  not_a_git_repository: 400,
  invalid_branch: 400,
  unknown_ref: 400,
  git_failed: 502,
  nothing_to_unrevert: 409,
  changed_since_revert: 409,
  nothing_to_commit: 409,
  no_branch: 409,
  no_remote: 409,
  push_rejected: 409,
  auth_failed: 424,
  git_timeout: 504,
  forge_cli_unavailable: 424,
  forge_failed: 502,
};

/**
 * The one error a daemon-side command throws when it refuses (file and thread commands alike); the dispatcher
 * turns it into a JSON-RPC error with HostErrorData. `code` is stable, `message` is for people.
 */
export class HostCommandError extends Error {
  constructor(
    readonly code: HostErrorCode,
    message: string,
    readonly details?: unknown,
    /** A JSON-RPC code other than HOST_COMMAND_FAILED, e.g. the ingest's own -32602. */
    readonly rpcCode: number = HOST_COMMAND_FAILED,
  ) {
    super(message);
    this.name = 'HostCommandError';
  }
}

/** How a host request failed, seen from the caller's side of the link. */
export type HostRequestFailure =
  | { kind: 'offline' }
  | { kind: 'timeout'; timeoutMs: number }
  | { kind: 'refused'; rpcCode: number; hostCode?: HostErrorCode; details?: unknown }
  | { kind: 'bad_result'; issues: unknown };

/** The one error type a HostLink request rejects with. */
export class HostRequestError extends Error {
  constructor(
    readonly failure: HostRequestFailure,
    message: string,
  ) {
    super(message);
  }
}
