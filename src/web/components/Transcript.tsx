import { useLayoutEffect, useRef } from 'preact/hooks';
import type { Transcript as TranscriptState, TurnEntry, TurnModel } from '../state/transcript';
import { ApprovalCard } from './ApprovalCard';
import { ItemView, NoteView } from './items';
import { PlanView } from './PlanView';
import { RefusedPrompt } from './RefusedPrompt';

const STATUS_TEXT = { completed: 'Completed', failed: 'Failed', interrupted: 'Interrupted' } as const;

/**
 * The thread's log (role `log`: new turns and text are announced politely). It sticks to the bottom while
 * the reader is there, and stays put when they scrolled up to read.
 */
export function Transcript({ threadId, transcript }: { threadId: string; transcript: TranscriptState }) {
  const scroller = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);

  useLayoutEffect(() => {
    const element = scroller.current!;
    const onScroll = () => (pinned.current = element.scrollHeight - element.scrollTop - element.clientHeight < 48);
    element.addEventListener('scroll', onScroll, { passive: true });
    // Any growth below (a delta, a new item) keeps a pinned reader at the bottom.
    const observer = new ResizeObserver(() => {
      if (pinned.current) element.scrollTop = element.scrollHeight;
    });
    observer.observe(element.firstElementChild!);
    return () => {
      element.removeEventListener('scroll', onScroll);
      observer.disconnect();
    };
  }, []);

  return (
    <div class="transcript" ref={scroller} role="log" aria-label="Transcript" aria-live="polite" tabIndex={0}>
      <div class="transcript-body">
        {transcript.entries.value.map((entry) =>
          entry.kind === 'turn' ? (
            <TurnView key={entry.key} threadId={threadId} turn={entry} />
          ) : (
            <EntryView key={entry.key} threadId={threadId} entry={entry} />
          ),
        )}
        {transcript.entries.value.length === 0 && <p class="muted">Nothing in this thread yet.</p>}
      </div>
    </div>
  );
}

function TurnView({ threadId, turn }: { threadId: string; turn: TurnModel }) {
  const status = turn.status.value;
  const refused = turn.refused.value;
  return (
    <section
      class={`turn ${turn.origin}`}
      data-turn-id={turn.key}
      aria-label={turn.origin === 'agent' ? 'Turn started by the agent' : 'Turn'}
    >
      {turn.origin === 'agent' && <p class="origin-label">Started by the agent</p>}
      {turn.entries.value.map((entry) => (
        <EntryView key={entry.key} threadId={threadId} entry={entry} />
      ))}
      {refused ? (
        <RefusedPrompt threadId={threadId} refused={refused} error={turn.error.value} />
      ) : (
        <p class={`turn-status ${status ?? 'running'}`}>
          {status ? STATUS_TEXT[status] : <span class="running-text">Running…</span>}
          {turn.error.value && <span class="error-text"> — {turn.error.value}</span>}
        </p>
      )}
    </section>
  );
}

function EntryView({ threadId, entry }: { threadId: string; entry: TurnEntry }) {
  switch (entry.kind) {
    case 'item':
      return <ItemView model={entry} />;
    case 'approval':
      return <ApprovalCard threadId={threadId} model={entry} />;
    case 'plan':
      return <PlanView plan={entry} />;
    default:
      return <NoteView note={entry} />;
  }
}
