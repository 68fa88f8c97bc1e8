import { z } from 'zod';
import { DIFF_MAX_FILES_ASKED, DiffScopeSchema } from '../../protocol/hostGitCommands';
import { decimalParam } from '../http/decimalParam';

/** A comment's text is a note to the agent, not a file: longer is refused (400 `invalid_body`). */
export const MAX_REVIEW_COMMENT_CHARS = 20_000;

/** `POST /threads/:id/review-comments`: a line of the thread's diff in that scope (issue 38). */
export const ReviewCommentBodySchema = z.strictObject({
  /** The file's path as the diff names it (relative to the thread's folder). */
  path: z.string().min(1).max(4096),
  line: z.number().int().positive(),
  side: z.enum(['new', 'old']),
  text: z.string().min(1).max(MAX_REVIEW_COMMENT_CHARS),
  scope: DiffScopeSchema,
});
export type ReviewCommentBody = z.infer<typeof ReviewCommentBodySchema>;

export const ReviewCommentPatchSchema = z.strictObject({ text: z.string().min(1).max(MAX_REVIEW_COMMENT_CHARS) });

/**
 * A comment as the API answers it. `snippet`: the line it points at, as the diff showed it when the comment was
 * written. `stale`: a draft whose line reads differently now; `sent`: in a prompt already.
 */
export const ReviewCommentSchema = z.strictObject({
  id: z.string(),
  path: z.string(),
  line: z.number().int(),
  side: z.enum(['new', 'old']),
  text: z.string(),
  snippet: z.string(),
  state: z.enum(['draft', 'stale', 'sent']),
});
export type ReviewComment = z.infer<typeof ReviewCommentSchema>;

export const ReviewCommentParamsSchema = z.strictObject({ id: z.string().min(1), commentId: z.string().min(1) });

export const DiffQuerySchema = z.strictObject({
  scope: DiffScopeSchema,
  /** `turn`: which turn (default: the last one the host recorded). */
  turnId: z.string().min(1).optional(),
  /** Only the first files in path order, read without the rest's patches (the page's first screen). */
  maxFiles: decimalParam.pipe(z.number().min(1).max(DIFF_MAX_FILES_ASKED)).optional(),
});
