import { sendJson } from '../api/http';
import type { CommentTarget, DiffScope, GitDiff, ReviewComment } from './types';

const threadPath = (threadId: string) => `/threads/${encodeURIComponent(threadId)}`;

/** The thread's changes in one scope (`turn`: the last turn, or `turnId`'s). */
export function fetchDiff(threadId: string, scope: DiffScope, turnId?: string): Promise<GitDiff> {
  const query = new URLSearchParams({ scope, ...(turnId ? { turnId } : {}) });
  return sendJson('GET', `${threadPath(threadId)}/diff?${query}`);
}

export function listReviewComments(threadId: string): Promise<ReviewComment[]> {
  return sendJson('GET', `${threadPath(threadId)}/review-comments`);
}

/** 201 with the comment as a draft, its snippet the line as the server read it. */
export function addReviewComment(threadId: string, target: CommentTarget, text: string): Promise<ReviewComment> {
  return sendJson('POST', `${threadPath(threadId)}/review-comments`, { ...target, text });
}

export function editReviewComment(threadId: string, commentId: string, text: string): Promise<ReviewComment> {
  return sendJson('PATCH', `${threadPath(threadId)}/review-comments/${encodeURIComponent(commentId)}`, { text });
}

export function deleteReviewComment(threadId: string, commentId: string): Promise<unknown> {
  return sendJson('DELETE', `${threadPath(threadId)}/review-comments/${encodeURIComponent(commentId)}`);
}
