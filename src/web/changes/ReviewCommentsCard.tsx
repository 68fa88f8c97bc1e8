import { MessageSquareText } from 'lucide-preact';
import type { SentComment } from './sentReview';

/** The review comments a prompt carried, as the transcript shows them: path:line, the line's snippet, the text. */
export function ReviewCommentsCard({ comments }: { comments: readonly SentComment[] }) {
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
