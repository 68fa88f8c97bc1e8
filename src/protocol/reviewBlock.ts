import { z } from 'zod';

/**
 * The block of review comments a prompt carries to its agent (issue 38), and how a `userMessage` item finds it
 * again: one plain text that every agent reads without a tool, and that the turn rules read back into
 * `reviewComments` on the item, so a transcript shows the comments as a card rather than as text.
 *
 *   <prompt>\n\nReview comments (N):\n\n1. <path>:<line>[ (old side, before the change)]\n> <snippet>\n<text>\n\n2. …
 */
export const ReviewBlockCommentSchema = z.object({
  path: z.string(),
  line: z.number().int(),
  side: z.enum(['new', 'old']),
  snippet: z.string(),
  text: z.string(),
});
export type ReviewBlockComment = z.infer<typeof ReviewBlockCommentSchema>;

const HEADING = /\n\nReview comments \((\d+)\):\n\n/g;
const OLD_SIDE = ' (old side, before the change)';

/** The prompt as sent: the user's words, then the block (none without comments). A snippet is one line. */
export function promptWithReview(prompt: string, comments: readonly ReviewBlockComment[]): string {
  if (comments.length === 0) return prompt;
  const entries = comments.map(
    (comment, index) =>
      `${index + 1}. ${comment.path}:${comment.line}${comment.side === 'old' ? OLD_SIDE : ''}\n> ${comment.snippet.replace(/\n/g, ' ')}\n${comment.text}`,
  );
  return `${prompt}\n\nReview comments (${comments.length}):\n\n${entries.join('\n\n')}`;
}

/**
 * The prompt and its comments, when the text ends with a block of exactly the number of entries its heading
 * announces, numbered 1…N in order; undefined for any other text (a user who typed the heading gets no card).
 */
export function splitReviewBlock(text: string): { prompt: string; comments: ReviewBlockComment[] } | undefined {
  for (const heading of [...text.matchAll(HEADING)].reverse()) {
    const count = Number(heading[1]);
    const comments = entriesOf(text.slice(heading.index + heading[0].length), count);
    if (comments) return { prompt: text.slice(0, heading.index), comments };
  }
  return undefined;
}

function entriesOf(block: string, count: number): ReviewBlockComment[] | undefined {
  const found: Array<{ at: number; end: number; match: RegExpExecArray }> = [];
  let from = 0;
  for (let number = 1; number <= count; number++) {
    // The first entry starts the block; each next one follows a blank line, and its text may hold blank lines.
    const entry = new RegExp(`${number === 1 ? '' : '\\n\\n'}${number}\\. (.+):(\\d+)(${escape(OLD_SIDE)})?\\n> (.*)\\n`, 'y');
    let match: RegExpExecArray | null = null;
    let at = number === 1 ? 0 : block.indexOf(`\n\n${number}. `, from);
    while (at >= 0 && !match) {
      entry.lastIndex = at;
      match = entry.exec(block);
      if (match) found.push({ at, end: entry.lastIndex, match });
      else at = number === 1 ? -1 : block.indexOf(`\n\n${number}. `, at + 1);
    }
    if (!match) return undefined;
    from = entry.lastIndex;
  }
  return found.map(({ end, match }, index) => ({
    path: match[1]!,
    line: Number(match[2]),
    side: match[3] ? 'old' : 'new',
    snippet: match[4]!,
    text: block.slice(end, found[index + 1]?.at ?? block.length),
  }));
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
