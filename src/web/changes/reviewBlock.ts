/** One comment a prompt carried, as the transcript's card shows it. */
export interface SentComment {
  path: string;
  line: number;
  side: 'new' | 'old';
  snippet: string;
  text: string;
}

const OLD_SIDE = ' (old side, before the change)';

/**
 * A user message split into what the person typed and the review comments the server added to it (issue 38):
 * the server sends the agent one plain-text block after the prompt (src/server/review/reviewBlock.ts):
 * "Review comments (N):", then per comment `k. path:line`, its snippet quoted with `> `, and its text. A message
 * without that block, or whose block does not read as one, is all prompt.
 */
export function splitReview(message: string): { prompt: string; comments: SentComment[] } {
  const heading = /\n\nReview comments \((\d+)\):\n\n/g;
  let match: RegExpExecArray | null;
  let last: RegExpExecArray | null = null;
  while ((match = heading.exec(message))) last = match;
  if (!last) return { prompt: message, comments: [] };
  const count = Number(last[1]);
  const comments = commentsOf(message.slice(last.index + last[0].length).split('\n'), count);
  return comments ? { prompt: message.slice(0, last.index), comments } : { prompt: message, comments: [] };
}

function commentsOf(lines: string[], count: number): SentComment[] | undefined {
  const comments: SentComment[] = [];
  let at = 0;
  for (let number = 1; number <= count; number++) {
    const head = new RegExp(`^${number}\\. (.+):(\\d+)(${OLD_SIDE.replace(/[()]/g, '\\$&')})?$`).exec(lines[at] ?? '');
    if (!head) return undefined;
    at++;
    const snippet: string[] = [];
    while (lines[at]?.startsWith('> ') || lines[at] === '>') snippet.push(lines[at++]!.slice(2));
    // The text runs to the blank line before the next entry's head (or to the end, for the last one).
    const next = new RegExp(`^${number + 1}\\. .+:\\d+`);
    const text: string[] = [];
    while (at < lines.length && !(number < count && lines[at] === '' && next.test(lines[at + 1] ?? ''))) text.push(lines[at++]!);
    at++;
    comments.push({
      path: head[1]!,
      line: Number(head[2]),
      side: head[3] ? 'old' : 'new',
      snippet: snippet.join('\n'),
      text: text.join('\n'),
    });
  }
  return comments;
}
