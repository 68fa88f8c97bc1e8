import { answerOf, client } from '../api/http';

/** The ship routes (issue 39), through the one typed client. */
const thread = (id: string) => ({ params: { path: { id } } });

export interface CommitRequest {
  message?: string;
  generate?: boolean;
}
export interface PullRequestRequest {
  title?: string;
  body?: string;
  base?: string;
  draft?: boolean;
  generate?: boolean;
}

/** 201 with `{sha, message, files, branch}`; 409 `nothing_to_commit`. */
export function commitThread(threadId: string, body: CommitRequest) {
  return answerOf(client.POST('/api/v1/threads/{id}/commit', { ...thread(threadId), body }));
}

/** `{remote, branch, sha, pushed}`; 409 `no_remote` / `push_rejected`, 424 `auth_failed`, 504 `git_timeout`. */
export function pushThread(threadId: string) {
  return answerOf(client.POST('/api/v1/threads/{id}/push', { ...thread(threadId), body: {} }));
}

/** 201 with `{pullRequest, push}`; 424 `forge_cli_unavailable` says what to install or run on the host. */
export function openPullRequest(threadId: string, body: PullRequestRequest) {
  return answerOf(client.POST('/api/v1/threads/{id}/pull-request', { ...thread(threadId), body }));
}
