import { useState } from 'preact/hooks';
import { changePermissionMode } from '../api/approvals';
import { messageOf } from '../api/http';
import type { PermissionMode, Thread } from '../api/types';
import { DEFAULT_MODE, PERMISSION_MODES } from '../state/agents';
import { refreshDirectory } from '../state/directory';

/**
 * The thread's permission mode, changeable while no turn runs (`PATCH /threads/:id`). A refusal (409
 * `thread_busy`: a turn started meanwhile) is said once, in place of the last one, and the mode stays.
 */
export function PermissionModeControl({ thread }: { thread: Thread }) {
  const current = (thread.permissionMode ?? DEFAULT_MODE) as PermissionMode;
  const [pending, setPending] = useState<PermissionMode | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const running = thread.status === 'active';
  // An archived thread is read-only: unarchive it first.
  const archived = thread.archived === true;

  const change = async (mode: PermissionMode) => {
    setProblem(null);
    setPending(mode);
    try {
      await changePermissionMode(thread.id, mode);
      await refreshDirectory();
    } catch (failure) {
      setProblem(messageOf(failure));
    } finally {
      setPending(null);
    }
  };

  return (
    <span class="mode-control">
      <label for="thread-mode-select">Mode</label>{' '}
      <select
        id="thread-mode-select"
        value={pending ?? current}
        disabled={pending !== null || running || archived}
        title={archived ? 'Unarchive the thread to change its mode' : running ? 'The mode can change once the turn ends' : undefined}
        onChange={(event) => void change(event.currentTarget.value as PermissionMode)}
      >
        {PERMISSION_MODES.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.value}
          </option>
        ))}
      </select>
      {problem && (
        <span role="alert" class="error-text">
          {' '}
          {problem}
        </span>
      )}
    </span>
  );
}
