import { sendJson } from './http';
import type { PermissionMode } from './types';

/** Answers an agent's question with one of the options it offered (200; 409 answered already; 404, 400). */
export function answerApproval(threadId: string, approvalId: string, optionId: string): Promise<unknown> {
  return sendJson('POST', `/threads/${encodeURIComponent(threadId)}/approvals/${encodeURIComponent(approvalId)}`, { optionId });
}

/** Changes an idle thread's permission mode (409 `thread_busy` while a turn runs). */
export function changePermissionMode(threadId: string, permissionMode: PermissionMode): Promise<unknown> {
  return sendJson('PATCH', `/threads/${encodeURIComponent(threadId)}`, { permissionMode });
}
