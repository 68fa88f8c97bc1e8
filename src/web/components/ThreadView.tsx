import { useSignalEffect } from '@preact/signals';
import { useEffect, useMemo, useRef } from 'preact/hooks';
import type { Thread } from '../api/types';
import { agentName } from '../state/agents';
import { listedThread, now, statusText } from '../state/directory';
import { openThreadFeed, type ThreadFeed } from '../state/threadFeed';
import { threadGone } from '../state/threadLifecycle';
import type { Transcript as TranscriptState } from '../state/transcript';
import { isWaiting, openThreadPending } from '../state/waiting';
import { ChangesButton } from '../changes/ChangesButton';
import { createChangesState } from '../changes/changesState';
import { ChangesView } from '../changes/ChangesView';
import { GitMenu } from '../ship/GitMenu';
import { Composer } from './Composer';
import { AgentControls } from './lifecycle/AgentControls';
import { ArchivedNotice } from './lifecycle/ArchivedNotice';
import { ThreadActions } from './lifecycle/ThreadActions';
import { ThreadTitle } from './lifecycle/ThreadTitle';
import { PermissionModeControl } from './PermissionModeControl';
import { Transcript } from './Transcript';

/**
 * The thread as the header shows it: the lists' copy (fresh status, polled), else the one read at open or
 * answered by a change, with the fields its `thread/updated` rows changed on top, so a rename or an archive
 * made in another tab shows the moment its row arrives.
 */
function liveThread(threadId: string, feed: ThreadFeed): Thread | undefined {
  const base = listedThread(threadId) ?? feed.record.value ?? undefined;
  return base && { ...base, ...feed.transcript.threadUpdate.value };
}

/**
 * One thread: its header (title, status, agent and its process, model, mode, tokens, context window, the
 * lifecycle actions), the live transcript, and the prompt box, or, once archived, a read-only notice.
 */
export function ThreadView({ threadId, seq }: { threadId: string; seq?: number }) {
  const feed = useMemo(() => openThreadFeed(threadId, seq), [threadId, seq]);
  useEffect(() => () => feed.close(), [feed]);
  const thread = liveThread(threadId, feed);
  // The review (issue 38): the Changes view beside the transcript, and its drafts above the prompt box.
  const changes = useMemo(() => createChangesState(threadId), [threadId]);
  const changed = (next: Thread) => void (feed.record.value = next);
  // Deleted here, in another tab or by another client: the view closes, saying which thread went.
  const lastTitle = useRef<string | undefined>(undefined);
  lastTitle.current = thread?.title ?? lastTitle.current;
  useSignalEffect(() => {
    if (feed.gone.value) threadGone(threadId, lastTitle.current);
  });
  // The list marks this thread from its own rows while it is open (state/waiting.ts).
  useSignalEffect(() => {
    openThreadPending.value = { threadId, approvalIds: feed.transcript.pendingApprovalIds.value };
  });
  useEffect(() => () => void (openThreadPending.value = null), []);

  return (
    <section class="thread-view" aria-labelledby="thread-heading">
      <header class="thread-head">
        <div class="thread-head-row">
          <ThreadTitle title={thread?.title ?? threadId} thread={thread} onChanged={changed} />
          <div class="thread-head-tools">
            <ChangesButton state={changes} place="head" />
            {thread && <GitMenu thread={thread} />}
            {thread && (
              <ThreadActions thread={thread} turns={feed.hasEarlier.value ? null : feed.transcript.turnCount.value} onChanged={changed} />
            )}
          </div>
        </div>
        <p class="thread-meta">
          {thread && (
            <>
              {thread.archived && <span class="archived-mark">Archived · </span>}
              <span class={`status ${thread.runtime.displayStatus}`}>{statusText(thread, now.value)}</span>
              {isWaiting(thread) && <span class="needs-answer"> · Needs your answer</span>} ·{' '}
              <span class="thread-agent" title="Agent">
                {agentName(thread.provider)}
              </span>{' '}
              · <span>{thread.model}</span> · <PermissionModeControl thread={thread} /> ·{' '}
              <AgentControls thread={thread} onChanged={changed} />
            </>
          )}
          {feed.state.value !== 'live' && <span class="muted"> · {feed.state.value === 'loading' ? 'loading…' : 'reconnecting…'}</span>}
        </p>
        <Usage transcript={feed.transcript} />
      </header>
      <div class={`thread-body${changes.open.value ? ' with-changes' : ''}`}>
        <Transcript threadId={threadId} feed={feed} />
        {changes.open.value && <ChangesView state={changes} workspace={thread?.workspace} />}
      </div>
      {thread?.archived ? (
        <ArchivedNotice thread={thread} onChanged={changed} />
      ) : (
        <Composer threadId={threadId} projectId={thread?.projectId} review={changes} />
      )}
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
