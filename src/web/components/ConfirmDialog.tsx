import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { messageOf } from '../api/http';

export interface ConfirmDialogProps {
  /** Prefix of the heading's and the text's element ids. */
  id: string;
  heading: string;
  children: ComponentChildren;
  /** The danger button's label, and what it says while `act` runs. */
  confirm: string;
  busy: string;
  /** The action; the dialog shows its failure in place and stays open. */
  act(): Promise<void>;
  onClose(): void;
}

/**
 * Asks before something that cannot be undone (a delete, a host's removal). Cancel is the first focus, the
 * safe choice; Tab keeps focus on the two buttons; Escape or a click outside closes the dialog unless the
 * action runs; focus goes back to where it came from.
 */
export function ConfirmDialog({ id, heading, children, confirm, busy, act, onClose }: ConfirmDialogProps) {
  const [running, setRunning] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);
  const confirmButton = useRef<HTMLButtonElement>(null);

  useLayoutEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    cancelButton.current?.focus();
    return () => before?.focus();
  }, []);

  const run = async () => {
    setRunning(true);
    setProblem(null);
    try {
      await act();
    } catch (failure) {
      setProblem(messageOf(failure));
      setRunning(false);
    }
  };

  return (
    <div class="backdrop" onMouseDown={(event) => event.target === event.currentTarget && !running && onClose()}>
      <div
        class="dialog confirm"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={`${id}-heading`}
        aria-describedby={`${id}-what`}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && !running) {
            event.preventDefault();
            onClose();
          } else if (event.key === 'Tab') {
            event.preventDefault();
            (document.activeElement === cancelButton.current ? confirmButton : cancelButton).current?.focus();
          }
        }}
      >
        <h2 id={`${id}-heading`}>{heading}</h2>
        <p id={`${id}-what`}>{children}</p>
        {problem && (
          <p role="alert" class="error-text">
            {problem}
          </p>
        )}
        <div class="dialog-actions">
          <button ref={confirmButton} type="button" class="danger" disabled={running} onClick={() => void run()}>
            {running ? busy : confirm}
          </button>
          <button ref={cancelButton} type="button" class="secondary" disabled={running} onClick={onClose}>
            Cancel
          </button>
        </div>
      </div>
    </div>
  );
}
