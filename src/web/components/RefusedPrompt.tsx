import { useState } from 'preact/hooks';
import { ApiError, answerOf, client, messageOf } from '../api/http';
import type { RefusedPrompt as RefusedPromptModel } from '../state/transcriptModel';

/**
 * Where a prompt the agent never took ends (issue 29): its one error, in place, and a Retry that sends the
 * same prompt again. A retry refused again updates this box (the transcript folds it); the box says only
 * what else went wrong (the host is away, …), never the refusal a second time.
 */
export function RefusedPrompt({ threadId, refused, error }: { threadId: string; refused: RefusedPromptModel; error: string | null }) {
  const [sending, setSending] = useState(false);
  const [other, setOther] = useState<string | null>(null);
  const retry = async () => {
    setSending(true);
    setOther(null);
    try {
      await answerOf(
        client.POST('/api/v1/threads/{id}/messages', { params: { path: { id: threadId } }, body: { prompt: refused.prompt } }),
      );
    } catch (failure) {
      if (!(failure instanceof ApiError && failure.code === 'agent_failed')) setOther(messageOf(failure));
    } finally {
      setSending(false);
    }
  };
  return (
    <div class="refused-prompt" role="alert">
      <p class="refused-title">Not sent to the agent{refused.attempts > 1 ? ` (tried ${refused.attempts} times)` : ''}</p>
      {error && <p class="refused-reason">{error}</p>}
      <p class="refused-actions">
        <button type="button" onClick={retry} disabled={sending}>
          {sending ? 'Retrying…' : 'Retry'}
        </button>
        {other && <span class="error-text"> {other}</span>}
      </p>
    </div>
  );
}
