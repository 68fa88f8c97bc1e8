import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { messageOf } from '../../api/http';
import { deletionText } from '../../state/deletionText';
import { deleteThreadHere } from '../../state/threadLifecycle';

/**
 * Asks before a delete, saying what goes: the title and how many turns. "Delete" sends
 * `DELETE /threads/:id`; on 204 the thread leaves the lists and its view closes. Cancel (the first focus,
 * the safe choice) or Escape closes the dialog, and focus goes back to where it came from.
 */
export function DeleteThreadDialog({
  threadId,
  title,
  turns,
  onClose,
}: {
  threadId: string;
  title: string;
  turns: number | null;
  onClose(): void;
}) {
  const [deleting, setDeleting] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const confirm = useRef<HTMLButtonElement>(null);

  useLayoutEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    cancel.current?.focus();
    return () => before?.focus();
  }, []);

  const remove = async () => {
    setDeleting(true);
    setProblem(null);
    try {
      await deleteThreadHere(threadId, title);
    } catch (failure) {
      setProblem(messageOf(failure));
      setDeleting(false);
    }
  };

  return (
    <div class="backdrop" onMouseDown={(event) => event.target === event.currentTarget && !deleting && onClose()}>
      <div
        class="dialog confirm"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="delete-heading"
        aria-describedby="delete-what"
        onKeyDown={(event) => {
          if (event.key === 'Escape' && !deleting) {
            event.preventDefault();
            onClose();
          } else if (event.key === 'Tab') {
            // Focus stays in the dialog: the two buttons take turns.
            event.preventDefault();
            (document.activeElement === cancel.current ? confirm : cancel).current?.focus();
          }
        }}
      >
        <h2 id="delete-heading">Delete thread?</h2>
        <p id="delete-what">{deletionText(title, turns)}</p>
        {problem && (
          <p role="alert" class="error-text">
            {problem}
          </p>
        )}
        <div class="dialog-actions">
          <button ref={confirm} type="button" class="danger" disabled={deleting} onClick={() => void remove()}>
            {deleting ? 'Deleting…' : 'Delete'}
          </button>
          <button ref={cancel} type="button" class="secondary" disabled={deleting} onClick={onClose}>
            Cancel
          </button>
        </div>
      </div>
    </div>
  );
}
