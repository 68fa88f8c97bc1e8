import { sendJson } from './http';
import type { Thread, ThreadPatch } from './types';

/**
 * The lifecycle routes of issue 28 (rename, archive, keep-running, delete, the archived list), called
 * through `sendJson` until `openapi.d.ts` holds them.
 */
const threadPath = (threadId: string) => `/threads/${encodeURIComponent(threadId)}`;

/** Changes any of title, archived, keepAgentRunning (200 with the thread as changed; 409 `thread_busy`…). */
export function patchThread(threadId: string, patch: ThreadPatch): Promise<Thread> {
  return sendJson('PATCH', threadPath(threadId), patch);
}

/** Deletes the thread and its rows (204; its id answers 404 afterwards). */
export async function deleteThread(threadId: string): Promise<void> {
  await sendJson('DELETE', threadPath(threadId));
}

/** One thread, archived or not (404 once deleted). */
export function getThread(threadId: string): Promise<Thread> {
  return sendJson('GET', threadPath(threadId));
}

/** The archived threads only: `GET /threads` leaves them out unless asked for. */
export function getArchivedThreads(): Promise<Thread[]> {
  return sendJson('GET', '/threads?archived=true');
}
