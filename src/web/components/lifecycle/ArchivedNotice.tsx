import type { Thread } from '../../api/types';
import { ProblemText } from './ProblemText';
import { useThreadChange } from './useThreadChange';

/** In place of the prompt box on an archived thread: it is read-only until unarchived, as it was. */
export function ArchivedNotice({ thread, onChanged }: { thread: Thread; onChanged(thread: Thread): void }) {
  const { pending, problem, change } = useThreadChange(thread.id, onChanged);
  return (
    <div class="archived-notice" role="region" aria-label="Archived">
      <p>This thread is archived: it is read-only and its agent does not run. Unarchive it to send prompts again.</p>
      <button type="button" disabled={pending !== null} onClick={() => void change({ archived: false })}>
        Unarchive
      </button>
      <ProblemText problem={problem} />
    </div>
  );
}
