import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { messageOf } from '../../api/http';
import { enrollCommand, makeEnrollment, type Enrollment } from '../../api/hosts';

/**
 * "Add host": makes a one-time enrollment code and shows the command that uses it, once. The code lives only
 * in this dialog's state: closing it forgets the code, and the server keeps only its hash.
 */
export function EnrollHost() {
  const [enrollment, setEnrollment] = useState<Enrollment | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const make = async () => {
    setBusy(true);
    setProblem(null);
    try {
      setEnrollment(await makeEnrollment());
    } catch (failure) {
      setProblem(messageOf(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <button type="button" class="small" disabled={busy} onClick={() => void make()}>
        Add host
      </button>
      {problem && (
        <p role="alert" class="error-text">
          {problem}
        </p>
      )}
      {enrollment && <EnrollCommand enrollment={enrollment} onClose={() => setEnrollment(null)} />}
    </>
  );
}

function EnrollCommand({ enrollment, onClose }: { enrollment: Enrollment; onClose(): void }) {
  const command = enrollCommand(location.origin, enrollment.code);
  const [copied, setCopied] = useState(false);
  const close = useRef<HTMLButtonElement>(null);
  useLayoutEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    close.current?.focus();
    return () => before?.focus();
  }, []);
  const copy = async () => {
    await navigator.clipboard?.writeText(command).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };
  const until = new Date(enrollment.expiresAt).toLocaleTimeString();

  return (
    <div class="backdrop" onMouseDown={(event) => event.target === event.currentTarget && onClose()}>
      <div
        class="dialog confirm"
        role="dialog"
        aria-modal="true"
        aria-labelledby="enroll-heading"
        onKeyDown={(event) => event.key === 'Escape' && onClose()}
      >
        <h2 id="enroll-heading">Add a host</h2>
        <p>On the new machine, in a checkout of agent-thread-service, run once:</p>
        <pre class="code" aria-label="Command to run on the new host">
          {command}
        </pre>
        <p class="muted">
          The code works once, until {until}, and is shown only now. The host then keeps a credential of its own: later starts need only{' '}
          <code>--server</code>.
        </p>
        <div class="dialog-actions">
          <button type="button" onClick={() => void copy()}>
            {copied ? 'Copied' : 'Copy command'}
          </button>
          <button ref={close} type="button" class="secondary" onClick={onClose}>
            Done
          </button>
        </div>
      </div>
    </div>
  );
}
