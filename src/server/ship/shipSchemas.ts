import { z } from 'zod';
import { GitCommitResultSchema, GitPushResultSchema, PullRequestSchema } from '../../protocol/hostShipCommands';

/** `POST /threads/:id/commit`: a message, or `generate: true` for one written by the thread's agent. */
export const CommitBodySchema = z.strictObject({
  message: z.string().trim().min(1).optional(),
  generate: z.boolean().optional(),
  /** Paths relative to the thread's folder; default every change. */
  paths: z.array(z.string().min(1)).min(1).optional(),
});
export type CommitBody = z.infer<typeof CommitBodySchema>;
export const CommitAnswerSchema = GitCommitResultSchema;

/** `POST /threads/:id/push`: default remote is the branch's upstream, else `origin`. */
export const PushBodySchema = z.strictObject({ remote: z.string().min(1).optional() });
export const PushAnswerSchema = GitPushResultSchema;

/** `POST /threads/:id/pull-request`. No title and no `generate`: the forge CLI fills both from the commits. */
export const PullRequestBodySchema = z.strictObject({
  title: z.string().trim().min(1).optional(),
  body: z.string().optional(),
  base: z.string().min(1).optional(),
  draft: z.boolean().optional(),
  generate: z.boolean().optional(),
});
export type PullRequestBody = z.infer<typeof PullRequestBodySchema>;
export const PullRequestAnswerSchema = z.strictObject({
  pullRequest: PullRequestSchema,
  /** The push it needed first, or null when the remote had the branch's tip. */
  push: GitPushResultSchema.nullable(),
});
