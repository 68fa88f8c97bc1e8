import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { messageOf } from '../../api/http';
import { removeHost } from '../../api/hosts';
import type { Host } from '../../api/types';
import { refreshDirectory } from '../../state/directory';

/**
 * "Remove" beside a host, with a confirmation saying what happens: its link closes now and it cannot connect
 * again until enrolled with a new code; its projects and threads stay. Cancel is the first focus.
 */
export function RemoveHost({ host }: { host: Host }) {
  const [asking, setAsking] = useState(false);
  const name = host.name || host.id;
  return (
    <>
      <button type="button" class="small danger-text" aria-label={`Remove host ${name}`} onClick={() => setAsking(true)}>
        Remove
      </button>
      {asking && <ConfirmRemove hostId={host.id} name={name} onClose={() => setAsking(false)} />}
    </>
  );
}

function ConfirmRemove({ hostId, name, onClose }: { hostId: string; name: string; onClose(): void }) {
  const [removing, setRemoving] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const confirm = useRef<HTMLButtonElement>(null);
  useLayoutEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    cancel.current?.focus();
    return () => before?.focus();
  }, []);

  const remove = async () => {
    setRemoving(true);
    setProblem(null);
    try {
      await removeHost(hostId);
      await refreshDirectory();
      onClose();
    } catch (failure) {
      setProblem(messageOf(failure));
      setRemoving(false);
    }
  };

  return (
    <div class="backdrop" onMouseDown={(event) => event.target === event.currentTarget && !removing && onClose()}>
      <div
        class="dialog confirm"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="remove-host-heading"
        aria-describedby="remove-host-what"
        onKeyDown={(event) => {
          if (event.key === 'Escape' && !removing) {
            event.preventDefault();
            onClose();
          } else if (event.key === 'Tab') {
            event.preventDefault();
            (document.activeElement === cancel.current ? confirm : cancel).current?.focus();
          }
        }}
      >
        <h2 id="remove-host-heading">Remove host {name}?</h2>
        <p id="remove-host-what">
          Its connection closes now and it cannot connect again until it is enrolled with a new code. Its projects and threads stay.
        </p>
        {problem && (
          <p role="alert" class="error-text">
            {problem}
          </p>
        )}
        <div class="dialog-actions">
          <button ref={confirm} type="button" class="danger" disabled={removing} onClick={() => void remove()}>
            {removing ? 'Removing…' : 'Remove'}
          </button>
          <button ref={cancel} type="button" class="secondary" disabled={removing} onClick={onClose}>
            Cancel
          </button>
        </div>
      </div>
    </div>
  );
}
