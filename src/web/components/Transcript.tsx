import { useLayoutEffect, useRef } from 'preact/hooks';
import type { ThreadFeed } from '../state/threadFeed';
import type { TranscriptEntry, TurnEntry, TurnModel } from '../state/transcriptModel';
import { ApprovalCard } from './ApprovalCard';
import { ItemView, NoteView } from './items';
import { PlanView } from './PlanView';
import { RefusedPrompt } from './RefusedPrompt';
import { go, threadHref } from '../state/route';
import { useTranscriptWindow } from './transcriptWindow';
import { TurnActions } from '../rewind/TurnActions';
import type { RewindLog } from '../rewind/rewindLog';

const STATUS_TEXT = { completed: 'Completed', failed: 'Failed', interrupted: 'Interrupted' } as const;

/**
 * The thread's log (role `log`: new turns and text are announced politely). Only the turns near the viewport
 * are in the DOM (issue 31: a thread of 100k rows stays a few hundred elements), with spacers of their
 * measured or estimated heights around them. It sticks to the bottom while the reader is there; scrolled up,
 * it stays put as rows arrive below (a "Jump to latest" button appears) and as earlier turns load above.
 */
export function Transcript({ threadId, feed }: { threadId: string; feed: ThreadFeed }) {
  const entries = feed.transcript.entries.value;
  const focus = feed.focus.value;
  const scroller = useRef<HTMLDivElement>(null);
  const view = useTranscriptWindow(scroller, entries, feed, focus);

  return (
    <div class="transcript-frame">
      <div class="transcript" ref={scroller} role="log" aria-label="Transcript" aria-live="polite" tabIndex={0}>
        <div class="transcript-body">
          <div class="transcript-spacer" style={{ height: `${view.above}px` }} />
          {entries.slice(view.start, view.end).map((entry) => (
            <Row
              key={entry.key}
              entry={entry}
              threadId={threadId}
              rewind={feed.transcript.rewind}
              focused={entry.key === focus}
              measure={view.measure}
            />
          ))}
          <div class="transcript-spacer" style={{ height: `${view.below}px` }} />
          {entries.length === 0 && <p class="muted">Nothing in this thread yet.</p>}
        </div>
      </div>
      {!view.atLatest && entries.length > 0 && (
        <button
          type="button"
          class="jump-latest"
          // Opened at a link far from the end: the latest is the thread opened at its end.
          onClick={feed.hasLater.value ? () => go(threadHref(threadId)) : view.jumpToLatest}
        >
          Jump to latest
        </button>
      )}
    </div>
  );
}

/** One top-level entry in a box of its own, measured as it renders and resizes. */
function Row({
  entry,
  threadId,
  rewind,
  focused,
  measure,
}: {
  entry: TranscriptEntry;
  threadId: string;
  rewind: RewindLog;
  focused: boolean;
  measure: (key: string, element: Element) => () => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => measure(entry.key, box.current!), [entry.key]);
  return (
    <div class={`transcript-row${focused ? ' focused' : ''}`} ref={box} data-entry-key={entry.key}>
      {entry.kind === 'turn' ? (
        <TurnView threadId={threadId} turn={entry} rewind={rewind} />
      ) : (
        <EntryView threadId={threadId} entry={entry} />
      )}
    </div>
  );
}

function TurnView({ threadId, turn, rewind }: { threadId: string; turn: TurnModel; rewind: RewindLog }) {
  const status = turn.status.value;
  const refused = turn.refused.value;
  const reverted = rewind.undone.value.has(turn.key);
  return (
    <section
      class={`turn ${turn.origin}${reverted ? ' reverted' : ''}`}
      data-turn-id={turn.key}
      aria-label={turn.origin === 'agent' ? 'Turn started by the agent' : 'Turn'}
    >
      {reverted && <p class="reverted-label">Reverted: its file changes are undone</p>}
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
      {!refused && <TurnActions threadId={threadId} turnId={turn.key} rewind={rewind} running={status === null} />}
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
