import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { Thread } from '../../api/types';
import { ProblemText } from './ProblemText';
import { useThreadChange } from './useThreadChange';

/**
 * The thread's title, renamed in place: "Rename" (or a double click on the title) turns it into a field;
 * Enter saves (`PATCH /threads/:id {"title"}`), Escape or leaving the field cancels. A refusal is said and
 * the field stays, so the text typed is not lost.
 */
export function ThreadTitle({ title, thread, onChanged }: { title: string; thread: Thread | undefined; onChanged(thread: Thread): void }) {
  const [draft, setDraft] = useState<string | null>(null);
  const { pending, problem, change, clearProblem } = useThreadChange(thread?.id ?? '', onChanged);
  /** Read by the blur handler, which may run before a render shows the save under way. */
  const saving = useRef(false);
  const field = useRef<HTMLInputElement>(null);
  const renameButton = useRef<HTMLButtonElement>(null);
  const editing = draft !== null;

  useLayoutEffect(() => {
    if (editing) field.current?.select();
  }, [editing]);

  const stop = () => {
    setDraft(null);
    clearProblem();
    requestAnimationFrame(() => renameButton.current?.focus());
  };
  const save = async () => {
    const next = draft?.trim() ?? '';
    if (!thread || next === '' || next === thread.title) return stop();
    saving.current = true;
    const saved = await change({ title: next });
    saving.current = false;
    if (saved) stop();
  };

  if (!editing)
    return (
      <div class="thread-title-row">
        <h2 id="thread-heading" onDblClick={() => thread && setDraft(thread.title)}>
          {title}
        </h2>
        {thread && (
          <button ref={renameButton} type="button" class="small secondary" onClick={() => setDraft(thread.title)}>
            Rename
          </button>
        )}
      </div>
    );
  return (
    <div class="thread-title-row">
      <input
        ref={field}
        class="title-field"
        aria-label="Thread title"
        value={draft}
        readOnly={pending !== null}
        maxLength={500}
        onInput={(event) => setDraft(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.isComposing) {
            event.preventDefault();
            void save();
          } else if (event.key === 'Escape') {
            event.preventDefault();
            stop();
          }
        }}
        onBlur={() => !saving.current && !problem && stop()}
      />
      <span class="muted hint">Enter saves, Escape cancels</span>
      <ProblemText problem={problem} />
    </div>
  );
}
