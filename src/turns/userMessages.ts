import { splitReviewBlock } from '../protocol/reviewBlock';
import type { UserInput, UserMessageItem } from '../protocol/threadEvents';

/**
 * The item of a `user` message the SDK reports: its text blocks (pi also takes a plain string) and images,
 * as Codex's `UserInput` parts. An image travels as a data URL, since that is all the agent had of it.
 */
export function userMessageItemOf(message: unknown, id: string): UserMessageItem {
  const content = (message as { content?: unknown } | null)?.content;
  return withReviewComments({
    type: 'userMessage',
    id,
    content: typeof content === 'string' ? [{ type: 'text', text: content }] : partsOf(content),
  });
}

/**
 * The item with the review comments its text carried (issue 38: the block a prompt with `reviewCommentIds`
 * ends with), so a transcript shows them as a card; the text stays as the agent received it.
 */
export function withReviewComments(item: UserMessageItem): UserMessageItem {
  for (const part of item.content) {
    const split = part.type === 'text' ? splitReviewBlock(part.text) : undefined;
    if (split) return { ...item, reviewComments: split.comments };
  }
  return item;
}

function partsOf(content: unknown): UserInput[] {
  if (!Array.isArray(content)) return [];
  const parts: UserInput[] = [];
  for (const block of content as Array<Record<string, unknown> | null>) {
    if (block?.['type'] === 'text' && typeof block['text'] === 'string') parts.push({ type: 'text', text: block['text'] });
    else if (block?.['type'] === 'image' && typeof block['data'] === 'string') {
      const mimeType = typeof block['mimeType'] === 'string' ? block['mimeType'] : 'application/octet-stream';
      parts.push({ type: 'image', url: `data:${mimeType};base64,${block['data']}` });
    }
  }
  return parts;
}
