import { answerOf, client } from '../api/http';
import type { Thread } from '../api/types';

/** The rewind routes (issue 39), through the one typed client. */
const thread = (id: string) => ({ params: { path: { id } } });

export function revertToTurn(threadId: string, turnId: string): Promise<unknown> {
  return answerOf(client.POST('/api/v1/threads/{id}/revert', { ...thread(threadId), body: { turnId } }));
}

export function undoRevert(threadId: string): Promise<unknown> {
  return answerOf(client.POST('/api/v1/threads/{id}/unrevert', thread(threadId)));
}

/**
 * `POST /threads/:id/fork {turnId}` → 201 with the new thread's view. The route is built beside this one (issue
 * 39's Fork part); until its spec is in the generated `openapi.d.ts`, the path is named through a cast.
 */
export function forkAtTurn(threadId: string, turnId: string): Promise<Thread> {
  const post = client.POST as unknown as (
    path: string,
    init: { params: { path: { id: string } }; body: { turnId: string } },
  ) => Promise<{ data?: Thread; error?: unknown; response: Response }>;
  return answerOf(post('/api/v1/threads/{id}/fork', { ...thread(threadId), body: { turnId } }));
}
