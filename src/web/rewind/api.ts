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

/** `POST /threads/:id/fork {turnId}` → 201 with the new thread's view (docs/fork.md). */
export function forkAtTurn(threadId: string, turnId: string): Promise<Thread> {
  return answerOf(client.POST('/api/v1/threads/{id}/fork', { ...thread(threadId), body: { turnId } }));
}
