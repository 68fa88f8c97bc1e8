import type { operations } from '../api/openapi';
import type { Thread } from '../api/types';

/**
 * The review loop's shapes (issue 38), named from the server's OpenAPI document (`openapi.d.ts`): the diff of
 * `GET /threads/:id/diff` (src/protocol/hostGitCommands.ts's GitDiffResultSchema on the wire) and the review
 * comments.
 */
type Answer<Operation extends keyof operations, Status extends number> =
  operations[Operation]['responses'] extends Record<Status, { content: { 'application/json': infer Body } }> ? Body : never;

export type GitDiff = Answer<'getThreadsByIdDiff', 200>;
export type DiffScope = GitDiff['scope'];
export type DiffFile = GitDiff['files'][number];
export type DiffHunk = DiffFile['hunks'][number];
export type DiffLine = DiffHunk['lines'][number];
export type DiffLineKind = DiffLine['kind'];

export type ReviewComment = Answer<'postThreadsByIdReviewComments', 201>;
export type CommentSide = ReviewComment['side'];
export type ReviewCommentState = ReviewComment['state'];

/** What a new comment names: the line (on the new or the old side of the diff) and the scope it was read in. */
export interface CommentTarget {
  path: string;
  line: number;
  side: CommentSide;
  scope: DiffScope;
}

/** A thread's own folder: the project's checkout, or a worktree of its own. */
export type ThreadWorkspace = Thread['workspace'];
