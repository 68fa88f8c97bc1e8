import { filter, firstValueFrom, last, scan, takeWhile, timeout, type Observable } from 'rxjs';
import type { StoredThreadEvent } from '../../protocol/threadEvents';
import type { ThreadRecord } from '../../registry/records';
import { Problem } from '../http/problem';
import { promptThread } from '../threads/promptThread';
import { SERVICE_PROMPT_PREFIX, servicePrompt, type GenerateKind } from './servicePrompts';
import type { ShipDeps } from './shipDeps';

/** How long a generating turn may run before the commit or pull request gives up on it. */
export const GENERATE_TIMEOUT_MS = 3 * 60_000;

/**
 * `generate: true`: a short turn of the thread's own agent, asked by the service (its prompt starts with
 * `SERVICE_PROMPT_PREFIX`, which the page shows as the service's), whose last answer is the text. The agent
 * sees its own work in its context, as t3code's and the Codex app's generated messages do. A thread with a turn
 * running is 409 `thread_busy` (the question would queue behind the turn as a follow-up); a turn that fails is
 * 502 `generate_failed`, one that outlasts GENERATE_TIMEOUT_MS 504 `generate_timeout`.
 */
export async function generateText(deps: ShipDeps, thread: ThreadRecord, kind: GenerateKind, base?: string): Promise<string> {
  if (deps.hosts.isOnline(thread.hostId)) {
    const { status } = await deps.hosts.call(thread.hostId, 'thread.status', { threadId: thread.id });
    if (status === 'active') throw new Problem(409, 'thread_busy', `thread ${thread.id} is running a turn: generate once it ends`);
  }
  // Subscribed before the prompt is sent, so the turn's first row is never missed.
  const answer = firstValueFrom(lastAnswerOfNextTurn(deps.hub.rowsOf$(thread.id)).pipe(timeout(GENERATE_TIMEOUT_MS)));
  answer.catch(() => undefined);
  await promptThread(deps, thread.id, servicePrompt(kind, base));
  const outcome = await answer.catch((error: unknown) => {
    if (error instanceof Error && error.name === 'TimeoutError') {
      throw new Problem(504, 'generate_timeout', `the thread’s agent did not answer within ${GENERATE_TIMEOUT_MS / 1000} s`);
    }
    throw error;
  });
  const text = outcome.text.trim();
  if (outcome.status !== 'completed' || !text) {
    throw new Problem(
      502,
      'generate_failed',
      `the thread’s agent did not write the ${kind === 'commit' ? 'commit message' : 'pull request'} (turn ${outcome.status}${outcome.error ? `: ${outcome.error}` : ''})`,
    );
  }
  return text;
}

interface TurnAnswer {
  turnId: string | null;
  text: string;
  status: string | null;
  error?: string;
}

/** The next turn's last agent message and how it ended, once it ended. */
function lastAnswerOfNextTurn(rows$: Observable<StoredThreadEvent>): Observable<TurnAnswer> {
  return rows$.pipe(
    scan<StoredThreadEvent, TurnAnswer>(
      (turn, row) => {
        if (row.type === 'turn/started' && turn.turnId === null) return { turnId: row.turnId, text: '', status: null };
        if (row.turnId !== turn.turnId || turn.turnId === null) return turn;
        if (row.type === 'item/completed' && row.data.item.type === 'agentMessage') return { ...turn, text: row.data.item.text };
        if (row.type === 'turn/completed')
          return { ...turn, status: row.data.status, ...(row.data.error ? { error: row.data.error.message } : {}) };
        return turn;
      },
      { turnId: null, text: '', status: null },
    ),
    takeWhile((turn) => turn.status === null, true),
    last(),
    filter((turn) => turn.turnId !== null),
  );
}

export { SERVICE_PROMPT_PREFIX };
