import { SendHorizontal, Square } from 'lucide-preact';
import { useState } from 'preact/hooks';
import { ApiError, answerOf, client, messageOf } from '../api/http';
import { ChangesButton } from '../changes/ChangesButton';
import type { ChangesState } from '../changes/changesState';
import { ReviewChips } from '../changes/ReviewChips';
import { projects } from '../state/directory';
import { openQuickOpen } from '../state/quickOpen';

/**
 * The prompt box. Enter sends (Shift+Enter is a new line); a prompt while a turn runs is a follow-up.
 * `@` at the start of a word opens the quick-open search and inserts the chosen path.
 */
export function Composer({ threadId, projectId, review }: { threadId: string; projectId: string | undefined; review?: ChangesState }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);

  const send = async () => {
    const prompt = text.trim();
    if (!prompt) return;
    setError(null);
    // The review's drafts go with the prompt (issue 38): the agent reads them, the transcript shows them as a card.
    const reviewCommentIds = review?.drafts.sendable.value ?? [];
    try {
      const body = { prompt, ...(reviewCommentIds.length > 0 ? { reviewCommentIds } : {}) };
      const answer = await answerOf(client.POST('/api/v1/threads/{id}/messages', { params: { path: { id: threadId } }, body }));
      if (reviewCommentIds.length > 0) review?.drafts.sent();
      setText('');
      setNote(answer.followUp ? 'Sent as a follow-up to the running turn.' : null);
    } catch (failure) {
      // The agent could not take it: the prompt and its one error are in the transcript, with a Retry (issue 29).
      if (failure instanceof ApiError && failure.code === 'agent_failed') {
        setText('');
        setNote(null);
      } else setError(messageOf(failure));
    }
  };
  const stop = async () => {
    setError(null);
    try {
      await answerOf(client.POST('/api/v1/threads/{id}/stop', { params: { path: { id: threadId } } }));
    } catch (failure) {
      setError(messageOf(failure));
    }
  };

  const mention = (element: HTMLTextAreaElement) => {
    const project = projects.value.find((candidate) => candidate.id === projectId);
    if (!project) return;
    const at = element.selectionStart;
    openQuickOpen(project, (entry) => {
      const value = element.value;
      const next = `${value.slice(0, at)}${entry.path} ${value.slice(at)}`;
      setText(next);
      requestAnimationFrame(() => {
        element.focus();
        const caret = at + entry.path.length + 1;
        element.setSelectionRange(caret, caret);
      });
    });
  };

  return (
    <form
      class="composer"
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      {review && <ReviewChips state={review} />}
      <label for="prompt" class="visually-hidden">
        Prompt
      </label>
      <textarea
        id="prompt"
        rows={3}
        placeholder="Ask the agent… (Enter sends, Shift+Enter new line, @ inserts a file path)"
        value={text}
        onInput={(event) => {
          const element = event.currentTarget;
          setText(element.value);
          const typed = (event as InputEvent).data;
          const before = element.value.slice(0, element.selectionStart - 1);
          if (typed === '@' && (before === '' || /\s$/.test(before))) mention(element);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
            event.preventDefault();
            void send();
          }
        }}
      />
      <div class="composer-actions">
        <button type="submit" class="with-icon">
          <SendHorizontal size={15} aria-hidden="true" />
          Send
        </button>
        <button type="button" class="secondary with-icon" onClick={stop}>
          <Square size={12} aria-hidden="true" fill="currentColor" />
          Stop
        </button>
        {review && <ChangesButton state={review} place="composer" />}
        <span class="composer-note" aria-live="polite">
          {error ? <span class="error-text">{error}</span> : note}
        </span>
      </div>
    </form>
  );
}
