import { useState } from 'preact/hooks';
import type { Thread } from '../../api/types';
import { DeleteThreadDialog } from './DeleteThreadDialog';
import { ProblemText } from './ProblemText';
import { useThreadChange } from './useThreadChange';

/**
 * Archive and Delete, in the thread's header. Archiving keeps the view open, read-only (its Unarchive is
 * where the prompt box was); Delete asks first, saying how many turns go.
 */
export function ThreadActions({ thread, turns, onChanged }: { thread: Thread; turns: number | null; onChanged(thread: Thread): void }) {
  const [confirming, setConfirming] = useState(false);
  const { pending, problem, change } = useThreadChange(thread.id, onChanged);
  return (
    <div class="thread-actions">
      {!thread.archived && (
        <button type="button" class="small secondary" disabled={pending !== null} onClick={() => void change({ archived: true })}>
          Archive
        </button>
      )}
      <button type="button" class="small secondary danger-text" onClick={() => setConfirming(true)}>
        Delete
      </button>
      <ProblemText problem={problem} />
      {confirming && <DeleteThreadDialog threadId={thread.id} title={thread.title} turns={turns} onClose={() => setConfirming(false)} />}
    </div>
  );
}
