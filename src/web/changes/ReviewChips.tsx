import { X } from 'lucide-preact';
import type { ChangesState } from './changesState';

/**
 * The drafts above the prompt box (issue 38): one chip per comment, `path:line` and its text; a click opens it
 * in the Changes view to edit, × deletes it. The next prompt sent carries the drafts (not the stale ones).
 */
export function ReviewChips({ state }: { state: ChangesState }) {
  const comments = state.drafts.comments.value;
  if (comments.length === 0) return null;
  return (
    <ul class="review-chips" aria-label="Review comments to send">
      {comments.map((comment) => (
        <li key={comment.id} class={`review-chip ${comment.state}`}>
          <button
            type="button"
            class="chip-label"
            title={comment.text}
            onClick={() => {
              state.target.value = null;
              state.editing.value = comment;
              if (!state.open.value) state.toggle();
            }}
          >
            <code>
              {comment.path}:{comment.line}
            </code>{' '}
            <span class="chip-text">{comment.text}</span>
            {comment.state === 'stale' && <span class="chip-stale"> (stale: the line changed)</span>}
          </button>
          <button
            type="button"
            class="icon-button chip-remove"
            aria-label={`Delete the comment on ${comment.path}:${comment.line}`}
            onClick={() => void state.drafts.remove(comment.id)}
          >
            <X size={14} aria-hidden="true" />
          </button>
        </li>
      ))}
    </ul>
  );
}
