import { useState } from 'preact/hooks';
import type { PullRequest } from '../api/types';
import { openPullRequest } from './api';
import { ShipDialog } from './ShipDialog';

/** Open pull request…: title and body (or filled from the commits, or written by the agent), base, draft. */
export function PullRequestDialog({ threadId, onOpened, onClose }: { threadId: string; onOpened(pr: PullRequest): void; onClose(): void }) {
  const [title, setTitle] = useState('');
  const [body, setBody] = useState('');
  const [base, setBase] = useState('');
  const [draft, setDraft] = useState(false);
  const [generate, setGenerate] = useState(false);
  return (
    <ShipDialog
      id="pull-request"
      heading="Open pull request"
      what="Pushes the thread's branch if the remote lacks it, then opens a pull request with the host's gh (glab for GitLab), as the user logged in there. Empty title: filled from the commits."
      confirm="Open pull request"
      busy={generate ? 'Asking the agent…' : 'Opening…'}
      act={async () => {
        const answer = await openPullRequest(threadId, {
          ...(title.trim() ? { title: title.trim() } : {}),
          ...(body ? { body } : {}),
          ...(base.trim() ? { base: base.trim() } : {}),
          ...(draft ? { draft } : {}),
          ...(generate ? { generate } : {}),
        });
        onOpened(answer.pullRequest);
      }}
      onClose={onClose}
    >
      <input
        aria-label="Title"
        placeholder="Title"
        value={title}
        disabled={generate}
        onInput={(event) => setTitle(event.currentTarget.value)}
      />
      <textarea
        aria-label="Description"
        rows={5}
        placeholder="Description (Markdown)"
        value={body}
        disabled={generate}
        onInput={(event) => setBody(event.currentTarget.value)}
      />
      <input
        aria-label="Base branch"
        placeholder="Base branch (default: the repository's)"
        value={base}
        onInput={(event) => setBase(event.currentTarget.value)}
      />
      <label class="ship-check">
        <input type="checkbox" checked={draft} onChange={(event) => setDraft(event.currentTarget.checked)} /> Draft
      </label>
      <label class="ship-check">
        <input type="checkbox" checked={generate} onChange={(event) => setGenerate(event.currentTarget.checked)} /> Write title and
        description with the thread's agent
      </label>
    </ShipDialog>
  );
}
