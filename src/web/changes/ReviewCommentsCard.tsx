import { MessageSquareText } from 'lucide-preact';

interface SentComment {
  path: string;
  line: number;
  side?: string;
  snippet?: string;
  text: string;
}

/** The comments a `userMessage` item records (issue 38), read leniently: an item without them shows nothing. */
export function sentCommentsOf(item: Readonly<Record<string, unknown>>): SentComment[] {
  const list = item.reviewComments;
  if (!Array.isArray(list)) return [];
  return list.filter(
    (comment): comment is SentComment =>
      typeof comment === 'object' && comment !== null && typeof comment.path === 'string' && typeof comment.text === 'string',
  );
}

/** The review comments a prompt carried, as the transcript shows them: path:line, the line's snippet, the text. */
export function ReviewCommentsCard({ item }: { item: Readonly<Record<string, unknown>> }) {
  const comments = sentCommentsOf(item);
  if (comments.length === 0) return null;
  return (
    <section class="review-card" aria-label="Review comments">
      <p class="review-card-title">
        <MessageSquareText class="icon" size={14} aria-hidden="true" /> Review comments ({comments.length})
      </p>
      <ul>
        {comments.map((comment, index) => (
          <li key={index}>
            <code class="review-where">
              {comment.path}:{comment.line}
              {comment.side === 'old' ? ' (old)' : ''}
            </code>
            {comment.snippet && <pre class="review-snippet">{comment.snippet}</pre>}
            <p class="review-text">{comment.text}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
