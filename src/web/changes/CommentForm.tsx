import { useEffect, useRef, useState } from 'preact/hooks';
import type { ChangesState } from './changesState';

/**
 * The comment being written on a diff line (or a draft being edited): Ctrl+Enter or Save keeps it as a draft
 * (a chip above the prompt box), Escape or Cancel drops it, and focus goes back to the diff.
 */
export function CommentForm({ state, onDone }: { state: ChangesState; onDone: () => void }) {
  const target = state.target.value;
  const editing = state.editing.value;
  const [text, setText] = useState(editing?.text ?? '');
  const [busy, setBusy] = useState(false);
  const field = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    setText(editing?.text ?? '');
    field.current?.focus();
  }, [target, editing]);
  if (!target && !editing) return null;
  const where = editing ? `${editing.path}:${editing.line}` : `${target!.path}:${target!.line}`;
  const side = (editing ?? target)!.side;
  const close = () => {
    state.target.value = null;
    state.editing.value = null;
    onDone();
  };
  const save = async () => {
    if (!text.trim() || busy) return;
    setBusy(true);
    if (editing) await state.drafts.edit(editing.id, text.trim());
    else await state.drafts.add(target!, text.trim());
    setBusy(false);
    if (!state.drafts.problem.value) close();
  };
  return (
    <form
      class="comment-form"
      aria-label="Review comment"
      onSubmit={(event) => (event.preventDefault(), void save())}
      onKeyDown={(event) => {
        // Escape here cancels the comment only; the Changes view (which Escape closes) stays open.
        if (event.key !== 'Escape') return;
        event.preventDefault();
        event.stopPropagation();
        close();
      }}
    >
      <label for="review-comment">
        {editing ? 'Edit the comment on' : 'Comment on'} <code>{where}</code>
        {side === 'old' ? ' (old side)' : ''}
      </label>
      <textarea
        id="review-comment"
        ref={field}
        rows={2}
        value={text}
        placeholder="What should change here? (Ctrl+Enter saves, Escape cancels)"
        onInput={(event) => setText(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) (event.preventDefault(), void save());
        }}
      />
      <div class="comment-actions">
        <button type="submit" class="small" disabled={busy || !text.trim()}>
          {editing ? 'Save comment' : 'Add comment'}
        </button>
        <button type="button" class="small secondary" onClick={close}>
          Cancel
        </button>
        {state.drafts.problem.value && <span class="error-text">{state.drafts.problem.value}</span>}
      </div>
    </form>
  );
}
