import { z } from 'zod';

export const PullRequestStateSchema = z.enum(['open', 'draft', 'closed', 'merged']);
export type PullRequestState = z.infer<typeof PullRequestStateSchema>;

/** A pull request (GitHub) or merge request (GitLab) as a thread keeps it (issue 39). */
export const PullRequestSchema = z.strictObject({
  url: z.string(),
  number: z.number().int(),
  state: PullRequestStateSchema,
  base: z.string(),
  head: z.string(),
});
export type PullRequest = z.infer<typeof PullRequestSchema>;
