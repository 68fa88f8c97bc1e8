import { useState } from 'preact/hooks';
import { answerApproval } from '../api/approvals';
import { ApiError, messageOf } from '../api/http';
import { allows, resolutionText, type ApprovalModel } from '../state/approvals';
import { Diff } from './items';

/** What this tab knows between its click and the `approval/resolved` row that settles the card everywhere. */
type Sent = { state: 'sending' | 'answered'; allowed: boolean } | { state: 'taken' } | { state: 'failed'; detail: string } | null;

/**
 * An agent's question: what it wants to run or change, and its options as buttons (allow kinds primary,
 * reject kinds secondary). Once its `approval/resolved` row arrives it shrinks to a one-line record.
 */
export function ApprovalCard({ threadId, model }: { threadId: string; model: ApprovalModel }) {
  const { request } = model;
  const resolution = model.resolution.value;
  const [sent, setSent] = useState<Sent>(null);
  if (resolution) {
    return (
      <p class={`item approval-record ${resolution.decidedBy}`} data-approval-id={request.approvalId}>
        <span class="approval-decision">{resolutionText(resolution, request.permissionMode)}</span>
        {' · '}
        <SubjectLine model={model} />
      </p>
    );
  }

  const choose = async (optionId: string, allowed: boolean) => {
    setSent({ state: 'sending', allowed });
    try {
      await answerApproval(threadId, request.approvalId, optionId);
      setSent({ state: 'answered', allowed });
    } catch (failure) {
      // 409: another tab, the policy or a stop answered first; its row is on its way and settles the card.
      if (failure instanceof ApiError && failure.status === 409) setSent({ state: 'taken' });
      else setSent({ state: 'failed', detail: messageOf(failure) });
    }
  };
  const { subject } = request;
  const busy = sent !== null && sent.state !== 'failed';
  return (
    <section class="item approval" aria-label="Approval needed" data-approval-id={request.approvalId}>
      <p class="who">The agent asks: {subject.title}</p>
      {subject.command && (
        <pre class="approval-command" aria-label="Command">
          <code>{subject.command}</code>
        </pre>
      )}
      {subject.diff && <Diff text={subject.diff} />}
      {subject.paths.length > 0 && (
        <ul class="approval-paths" aria-label="Paths">
          {subject.paths.map((path) => (
            <li key={path}>
              <code>{path}</code>
            </li>
          ))}
        </ul>
      )}
      <div class="approval-actions">
        {request.options.map((option) => (
          <button
            key={option.optionId}
            type="button"
            class={allows(option) ? undefined : 'secondary'}
            disabled={busy}
            onClick={() => void choose(option.optionId, allows(option))}
          >
            {option.name}
          </button>
        ))}
        <span class="approval-note" aria-live="polite">
          {sent?.state === 'answered' && (sent.allowed ? 'Allowed' : 'Rejected')}
          {sent?.state === 'sending' && 'Sending…'}
          {sent?.state === 'taken' && 'Already answered; waiting for the record…'}
        </span>
      </div>
      {sent?.state === 'failed' && (
        <p role="alert" class="error-text">
          {sent.detail}
        </p>
      )}
    </section>
  );
}

/** The question in a few words: its command, else its first path, else its title. */
function SubjectLine({ model }: { model: ApprovalModel }) {
  const { subject } = model.request;
  const what = subject.command ?? subject.paths[0];
  return what ? <code>{what}</code> : <span>{subject.title}</span>;
}
