import type { ThreadItem } from '../api/types';

type UserMessage = Extract<ThreadItem, { type: 'userMessage' }>;
export type SentComment = NonNullable<UserMessage['reviewComments']>[number];

/**
 * A user message split into what the person typed and the review comments its prompt carried (issue 38). The
 * turn rules read the comments back from the block the server added after the prompt (src/protocol/
 * reviewBlock.ts) into `reviewComments`; the text stays as the agent received it, so the page cuts the block
 * off at its heading to show the prompt alone above the card.
 */
export function sentReview(item: Readonly<Record<string, unknown>>, text: string): { prompt: string; comments: SentComment[] } {
  const comments = Array.isArray(item.reviewComments) ? (item.reviewComments as SentComment[]) : [];
  if (comments.length === 0) return { prompt: text, comments };
  const heading = text.lastIndexOf(`\n\nReview comments (${comments.length}):\n\n`);
  return { prompt: heading >= 0 ? text.slice(0, heading) : text, comments };
}
