import { useState } from 'preact/hooks';
import { commitThread } from './api';
import { ShipDialog } from './ShipDialog';

/** Commit…: a message, or "Write it with the agent" (a short turn of the thread's agent, asked by the service). */
export function CommitDialog({
  threadId,
  branch,
  onDone,
  onClose,
}: {
  threadId: string;
  branch: string | null;
  onDone(text: string): void;
  onClose(): void;
}) {
  const [message, setMessage] = useState('');
  const [generate, setGenerate] = useState(false);
  return (
    <ShipDialog
      id="commit"
      heading="Commit"
      what={`Commits every change in the thread's folder${branch ? ` on ${branch}` : ''}, as git add -A && git commit would. Nothing is pushed.`}
      confirm="Commit"
      busy={generate ? 'Asking the agent…' : 'Committing…'}
      act={async () => {
        const commit = await commitThread(threadId, generate ? { generate: true } : { message });
        onDone(`Committed ${commit.sha.slice(0, 7)} (${commit.files.length} ${commit.files.length === 1 ? 'file' : 'files'})`);
      }}
      onClose={onClose}
    >
      <textarea
        aria-label="Commit message"
        rows={4}
        placeholder="Commit message"
        value={message}
        disabled={generate}
        required={!generate}
        onInput={(event) => setMessage(event.currentTarget.value)}
      />
      <label class="ship-check">
        <input type="checkbox" checked={generate} onChange={(event) => setGenerate(event.currentTarget.checked)} /> Write it with the
        thread's agent
      </label>
    </ShipDialog>
  );
}
