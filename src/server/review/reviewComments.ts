import { newId } from '../../protocol/ids';
import type { ReviewCommentRecord, ThreadRecord } from '../../registry/records';
import { Problem } from '../http/problem';
import { fileOfDiff, lineOfDiff } from './diffLine';
import type { ReviewComment, ReviewCommentBody } from './reviewCommentSchemas';
import { threadDiff, type ReviewDeps } from './threadDiff';

/** A comment as answered, in the given state (`stale` is only ever worked out, never stored). */
export function reviewCommentOf(record: ReviewCommentRecord, state: ReviewComment['state'] = record.state): ReviewComment {
  const { id, path, line, side, text, snippet } = record;
  return { id, path, line, side, text, snippet, state };
}

/** Writes a draft on a line the thread's diff shows now, quoting that line (400 `line_not_in_diff` otherwise). */
export async function createReviewComment(deps: ReviewDeps, thread: ThreadRecord, body: ReviewCommentBody): Promise<ReviewCommentRecord> {
  const diff = await threadDiff(deps, thread, body.scope);
  const file = fileOfDiff(diff, body.path, body.side);
  const snippet = file && lineOfDiff(file, body.line, body.side);
  if (snippet === undefined) {
    throw new Problem(
      400,
      'line_not_in_diff',
      `line ${body.line} (${body.side}) of ${body.path} is not in the thread's ${body.scope} diff`,
    );
  }
  const record: ReviewCommentRecord = {
    id: newId('rc'),
    threadId: thread.id,
    ...body,
    snippet,
    state: 'draft',
    createdAt: new Date().toISOString(),
  };
  return deps.registry.reviewComments.insert(record);
}

/** One comment of the thread (404 `review_comment_not_found` for another thread's). */
export async function reviewCommentOfThread(deps: ReviewDeps, thread: ThreadRecord, commentId: string): Promise<ReviewCommentRecord> {
  const record = await deps.registry.reviewComments.get(commentId);
  if (!record || record.threadId !== thread.id) {
    throw new Problem(404, 'review_comment_not_found', `thread ${thread.id} has no review comment ${commentId}`);
  }
  return record;
}

/**
 * The comments a prompt sends, in the order named. Every id must be one of the thread's
 * (400 `unknown_review_comment`), so a prompt never goes out with half its comments.
 */
export async function commentsToSend(deps: ReviewDeps, thread: ThreadRecord, ids: readonly string[]): Promise<ReviewCommentRecord[]> {
  const unique = [...new Set(ids)];
  const records = await Promise.all(unique.map((id) => deps.registry.reviewComments.get(id)));
  const unknown = unique.filter((_, index) => records[index]?.threadId !== thread.id);
  if (unknown.length > 0)
    throw new Problem(400, 'unknown_review_comment', `thread ${thread.id} has no review comments ${unknown.join(', ')}`);
  return records as ReviewCommentRecord[];
}

/** Once their prompt was accepted: each comment is `sent` (it stays listed, so the review keeps its history). */
export async function markSent(deps: ReviewDeps, records: readonly ReviewCommentRecord[]): Promise<void> {
  for (const record of records) await deps.registry.reviewComments.update({ ...record, state: 'sent' });
}
