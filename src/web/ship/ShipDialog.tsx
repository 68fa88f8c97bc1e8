import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { messageOf } from '../api/http';

/**
 * The dialog of Commit… and Open pull request…: its fields, a line saying what the action changes, and the
 * action's refusal in place (the dialog stays open). Escape or Cancel closes it unless the action runs.
 */
export function ShipDialog(props: {
  id: string;
  heading: string;
  what: string;
  confirm: string;
  busy: string;
  children: ComponentChildren;
  act(): Promise<void>;
  onClose(): void;
}) {
  const [running, setRunning] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const run = async () => {
    setRunning(true);
    setProblem(null);
    try {
      await props.act();
      props.onClose();
    } catch (failure) {
      setProblem(messageOf(failure));
      setRunning(false);
    }
  };
  return (
    <div class="backdrop" onMouseDown={(event) => event.target === event.currentTarget && !running && props.onClose()}>
      <div class="dialog" role="dialog" aria-modal="true" aria-labelledby={`${props.id}-heading`}>
        <form
          class="ship-dialog"
          onKeyDown={(event) => event.key === 'Escape' && !running && props.onClose()}
          onSubmit={(event) => {
            event.preventDefault();
            void run();
          }}
        >
          <h2 id={`${props.id}-heading`}>{props.heading}</h2>
          <p class="muted">{props.what}</p>
          {props.children}
          {problem && (
            <p role="alert" class="error-text">
              {problem}
            </p>
          )}
          <div class="dialog-actions">
            <button type="submit" disabled={running}>
              {running ? props.busy : props.confirm}
            </button>
            <button type="button" class="secondary" disabled={running} onClick={props.onClose}>
              Cancel
            </button>
          </div>
        </form>
      </div>
    </div>
  );
}
