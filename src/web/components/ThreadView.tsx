import { useSignalEffect } from '@preact/signals';
import { useEffect, useMemo } from 'preact/hooks';
import { agentName } from '../state/agents';
import { now, statusText, threads } from '../state/directory';
import { openThreadFeed } from '../state/threadFeed';
import type { Transcript as TranscriptState } from '../state/transcript';
import { isWaiting, openThreadPending } from '../state/waiting';
import { Composer } from './Composer';
import { PermissionModeControl } from './PermissionModeControl';
import { Transcript } from './Transcript';

/** One thread: its header (status, agent, model, mode, tokens, context window), the live transcript, the prompt box. */
export function ThreadView({ threadId }: { threadId: string }) {
  const feed = useMemo(() => openThreadFeed(threadId), [threadId]);
  useEffect(() => () => feed.close(), [feed]);
  const thread = threads.value.find((candidate) => candidate.id === threadId);
  // The list marks this thread from its own rows while it is open (state/waiting.ts).
  useSignalEffect(() => {
    openThreadPending.value = { threadId, approvalIds: feed.transcript.pendingApprovalIds.value };
  });
  useEffect(() => () => void (openThreadPending.value = null), []);

  return (
    <section class="thread-view" aria-labelledby="thread-heading">
      <header class="thread-head">
        <h2 id="thread-heading">{thread?.title ?? threadId}</h2>
        <p class="thread-meta">
          {thread && (
            <>
              <span class={`status ${thread.runtime.displayStatus}`}>{statusText(thread, now.value)}</span>
              {isWaiting(thread) && <span class="needs-answer"> · Needs your answer</span>} ·{' '}
              <span class="thread-agent" title="Agent">
                {agentName(thread.provider)}
              </span>{' '}
              · <span>{thread.model}</span> · <PermissionModeControl thread={thread} />
            </>
          )}
          {feed.state.value !== 'live' && <span class="muted"> · {feed.state.value === 'loading' ? 'loading…' : 'reconnecting…'}</span>}
        </p>
        {thread?.agentError && (
          <p class="error-text" role="alert">
            The agent could not start: {thread.agentError.message}
          </p>
        )}
        <Usage transcript={feed.transcript} />
      </header>
      <Transcript threadId={threadId} transcript={feed.transcript} />
      <Composer threadId={threadId} projectId={thread?.projectId} />
    </section>
  );
}

function Usage({ transcript }: { transcript: TranscriptState }) {
  const usage = transcript.tokenUsage.value;
  const context = transcript.contextWindow.value;
  const percent = context && context.modelContextWindow > 0 ? Math.min(100, (100 * context.usedTokens) / context.modelContextWindow) : null;
  return (
    <div class="usage">
      <span aria-label="Token usage">
        Tokens:{' '}
        {usage
          ? `${usage.total.totalTokens.toLocaleString()} total (${usage.total.inputTokens.toLocaleString()} in, ${usage.total.cachedInputTokens.toLocaleString()} cached, ${usage.total.outputTokens.toLocaleString()} out)`
          : 'none yet'}
      </span>
      {context && percent !== null && (
        <span class="context">
          <label for="context-meter">Context window</label>{' '}
          <meter id="context-meter" min={0} max={context.modelContextWindow} value={context.usedTokens} />{' '}
          <span>
            {context.usedTokens.toLocaleString()} / {context.modelContextWindow.toLocaleString()} ({percent.toFixed(1)}%
            {context.estimated ? ', estimated' : ''})
          </span>
        </span>
      )}
    </div>
  );
}
