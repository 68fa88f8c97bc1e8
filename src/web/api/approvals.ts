import { API, ApiError, signedIn } from './http';
import type { PermissionMode } from './types';

/**
 * The two routes of issue 27 the page calls before `openapi.d.ts` holds them (the server's document gains
 * them with the approvals route; `npm run gen:web-api` then lets these move onto the typed client). Same
 * cookie, same origin, and a problem+json answer becomes the same ApiError as the typed client's.
 */
async function send<T>(method: 'POST' | 'PATCH', pathname: string, body: unknown): Promise<T> {
  const response = await fetch(`${API}${pathname}`, {
    method,
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status === 401) signedIn.value = false;
  const answer = (await response.json().catch(() => ({}))) as { code?: string; detail?: string; title?: string };
  if (!response.ok)
    throw new ApiError(response.status, answer.code ?? 'http_error', answer.detail ?? answer.title ?? `HTTP ${response.status}`);
  return answer as T;
}

/** Answers an agent's question with one of the options it offered (200; 409 answered already; 404, 400). */
export function answerApproval(threadId: string, approvalId: string, optionId: string): Promise<unknown> {
  return send('POST', `/threads/${encodeURIComponent(threadId)}/approvals/${encodeURIComponent(approvalId)}`, { optionId });
}

/** Changes an idle thread's permission mode (409 `thread_busy` while a turn runs). */
export function changePermissionMode(threadId: string, permissionMode: PermissionMode): Promise<unknown> {
  return send('PATCH', `/threads/${encodeURIComponent(threadId)}`, { permissionMode });
}
