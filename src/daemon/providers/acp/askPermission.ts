import type { RequestPermissionRequest, RequestPermissionResponse } from '@agentclientprotocol/sdk';
import type { AskUser } from '../agentProvider';
import { approvalQuestionOf, permissionResponseOf, refusalOf } from './approvalQuestion';

export interface AskPermissionOptions {
  /** Absent when the provider is driven alone (tests): every question is refused. */
  askUser?: AskUser;
  /** Aborts when the answer can no longer matter: the agent exited, the prompt was cancelled, the thread closed. */
  signal: AbortSignal;
  cwd: string;
}

/**
 * Answers an agent's `session/request_permission` through the daemon (`askUser`, which applies the mode's
 * policy or waits for the user). Once `signal` aborts the agent is told `cancelled` at once, whatever
 * `askUser` does later: ACP requires a cancelled prompt's open requests to be answered so (`session/cancel`).
 */
export async function askPermission(request: RequestPermissionRequest, options: AskPermissionOptions): Promise<RequestPermissionResponse> {
  const { askUser, signal } = options;
  if (!askUser) return refusalOf(request);
  if (signal.aborted) return { outcome: { outcome: 'cancelled' } };
  let onAbort!: () => void;
  const aborted = new Promise<RequestPermissionResponse>((resolve) => {
    onAbort = () => resolve({ outcome: { outcome: 'cancelled' } });
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const answered = askUser(approvalQuestionOf(request, options.cwd), signal).then(permissionResponseOf, () => refusalOf(request));
    return await Promise.race([answered, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
