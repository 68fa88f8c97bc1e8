import { z } from 'zod';
import { hostPath } from './hostFiles';
import { PullRequestSchema } from './pullRequest';

/**
 * Ship commands of the host-daemon contract (issue 39): commit a thread's work, push its branch, open a pull
 * request and read its state. Git and the forge CLI (`gh`, `glab`) run on the host as its logged-in user: the
 * forge credentials never leave the machine that has them (t3code's rule). The host writes the `git/…` rows
 * of the thread itself, so a daemon killed mid-commit or mid-push says at its next start which happened.
 */
const ThreadId = z.string().regex(/^thr_/, 'a thread id starts with thr_');

/** `git.commit`: the thread folder's changes (all of them, or `paths`) as one commit on its current branch. */
export const GitCommitParamsSchema = z.strictObject({
  threadId: ThreadId,
  /** The thread's folder: its worktree, or the checkout for a checkout thread. */
  path: hostPath,
  message: z.string().trim().min(1),
  /** Paths relative to the folder; default everything (`git add -A`). */
  paths: z.array(z.string().min(1)).min(1).optional(),
});
export type GitCommitParams = z.infer<typeof GitCommitParamsSchema>;
export const GitCommitResultSchema = z.strictObject({
  sha: z.string(),
  message: z.string(),
  /** The paths the commit changed (as `git diff-tree --name-only` names them). */
  files: z.array(z.string()),
  /** The branch it was committed on, or null on a detached `HEAD`. */
  branch: z.string().nullable(),
});
export type GitCommitResult = z.infer<typeof GitCommitResultSchema>;

/** `git.push`: `git push -u` of the folder's current branch; no prompt for credentials, never longer than its timeout. */
export const GitPushParamsSchema = z.strictObject({
  threadId: ThreadId,
  path: hostPath,
  /** Default: the branch's upstream remote, else `origin`. */
  remote: z.string().min(1).optional(),
});
export type GitPushParams = z.infer<typeof GitPushParamsSchema>;
export const GitPushResultSchema = z.strictObject({
  remote: z.string(),
  branch: z.string(),
  sha: z.string(),
  /** False when the remote already had this commit on that branch (nothing was sent). */
  pushed: z.boolean(),
});
export type GitPushResult = z.infer<typeof GitPushResultSchema>;

export { PullRequestSchema, PullRequestStateSchema, type PullRequest, type PullRequestState } from './pullRequest';

/**
 * `forge.pull_request_create`: pushes the branch when the remote does not have its tip, then `gh pr create`
 * (`glab mr create` for a GitLab remote). No title: the forge CLI fills title and body from the commits (`--fill`).
 */
export const PullRequestCreateParamsSchema = z.strictObject({
  threadId: ThreadId,
  path: hostPath,
  title: z.string().trim().min(1).optional(),
  body: z.string().optional(),
  /** Default: the repository's default branch, as the forge CLI decides. */
  base: z.string().min(1).optional(),
  draft: z.boolean().optional(),
  remote: z.string().min(1).optional(),
});
export type PullRequestCreateParams = z.infer<typeof PullRequestCreateParamsSchema>;
export const PullRequestCreateResultSchema = z.strictObject({
  pullRequest: PullRequestSchema,
  /** The push it needed first, or null when the remote had the branch's tip already. */
  push: GitPushResultSchema.nullable(),
});

/** `forge.pull_request_view`: a pull request's state now (`gh pr view --json`), for the server's minute refresh. */
export const PullRequestViewParamsSchema = z.strictObject({ threadId: ThreadId, path: hostPath, url: z.string().min(1) });
export const PullRequestViewResultSchema = PullRequestSchema;

export const hostShipCommands = {
  'git.commit': { params: GitCommitParamsSchema, result: GitCommitResultSchema },
  'git.push': { params: GitPushParamsSchema, result: GitPushResultSchema },
  'forge.pull_request_create': { params: PullRequestCreateParamsSchema, result: PullRequestCreateResultSchema },
  'forge.pull_request_view': { params: PullRequestViewParamsSchema, result: PullRequestViewResultSchema },
} as const;
