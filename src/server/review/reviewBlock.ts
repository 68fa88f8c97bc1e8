import type { ReviewCommentRecord } from '../../registry/records';

/** The heading the agent's block starts with; the page finds the comments in a user message by it. */
export const REVIEW_BLOCK_HEADING = 'Review comments';

/**
 * The one block the agent receives after the prompt (issue 38): "Review comments (N)", then for each comment
 * its path and line (and side, when it is the old one), the lines it points at as quoted when written, and
 * its text. Plain text, as Codex and Zed send review notes: every agent reads it without a tool.
 */
export function reviewBlockOf(comments: readonly ReviewCommentRecord[]): string {
  const entries = comments.map((comment, index) => {
    const where = `${comment.path}:${comment.line}${comment.side === 'old' ? ' (old side, before the change)' : ''}`;
    const snippet = comment.snippet
      .split('\n')
      .map((line) => `> ${line}`)
      .join('\n');
    return `${index + 1}. ${where}\n${snippet}\n${comment.text}`;
  });
  return `${REVIEW_BLOCK_HEADING} (${comments.length}):\n\n${entries.join('\n\n')}`;
}

/** The prompt as sent: the user's words, then the block. */
export function promptWithReview(prompt: string, comments: readonly ReviewCommentRecord[]): string {
  return comments.length === 0 ? prompt : `${prompt}\n\n${reviewBlockOf(comments)}`;
}
