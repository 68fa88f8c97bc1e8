import { useLayoutEffect, useRef } from 'preact/hooks';
import type { Transcript as TranscriptState, TurnModel } from '../state/transcript';
import { ItemView, NoteView } from './items';

const STATUS_TEXT = { completed: 'Completed', failed: 'Failed', interrupted: 'Interrupted' } as const;

/**
 * The thread's log (role `log`: new turns and text are announced politely). It sticks to the bottom while
 * the reader is there, and stays put when they scrolled up to read.
 */
export function Transcript({ transcript }: { transcript: TranscriptState }) {
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
          entry.kind === 'turn' ? <TurnView key={entry.key} turn={entry} /> : <NoteView key={entry.key} note={entry} />,
        )}
        {transcript.entries.value.length === 0 && <p class="muted">Nothing in this thread yet.</p>}
      </div>
    </div>
  );
}

function TurnView({ turn }: { turn: TurnModel }) {
  const status = turn.status.value;
  return (
    <section
      class={`turn ${turn.origin}`}
      data-turn-id={turn.key}
      aria-label={turn.origin === 'agent' ? 'Turn started by the agent' : 'Turn'}
    >
      {turn.origin === 'agent' && <p class="origin-label">Started by the agent</p>}
      {turn.entries.value.map((entry) =>
        entry.kind === 'item' ? <ItemView key={entry.key} model={entry} /> : <NoteView key={entry.key} note={entry} />,
      )}
      <p class={`turn-status ${status ?? 'running'}`}>
        {status ? STATUS_TEXT[status] : <span class="running-text">Running…</span>}
        {turn.error.value && <span class="error-text"> — {turn.error.value}</span>}
      </p>
    </section>
  );
}
