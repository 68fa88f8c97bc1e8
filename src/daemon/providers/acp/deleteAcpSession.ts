import type { ClientConnection } from '@agentclientprotocol/sdk';
import type { AcpSdk } from './loadAcpSdk';

/**
 * How long a delete waits for the agent (its start, `initialize` and `session/delete`) before it gives up: below
 * the server's host command timeout (15 s), so the host still answers the delete itself.
 */
export const DEFAULT_DELETE_TIMEOUT_MS = 10_000;

export interface AcpSessionDelete {
  sdk: AcpSdk;
  connection: ClientConnection;
  sessionId: string;
  /** The agent advertised `sessionCapabilities.delete` in its `initialize`. */
  canDelete: boolean;
  /** Prefixes the log line, e.g. `codex thread thr_1`. */
  who: string;
  /** Removes what the agent leaves of a deleted session (AcpAgentSpec.afterDelete). */
  afterDelete?: () => Promise<void>;
  log(message: string): void;
}

/**
 * Asks the agent to delete one of its sessions (`session/delete`: what it keeps of it, in its own home). An
 * agent that does not delete sessions over ACP keeps it: the log says where it stays, and this resolves.
 */
export async function deleteAcpSession(request: AcpSessionDelete): Promise<void> {
  const { sdk, sessionId, who, log } = request;
  if (!request.canDelete) {
    log(`${who}: the agent deletes no sessions over ACP, so session ${sessionId} stays where the agent keeps it`);
    return;
  }
  await request.connection.agent.request(sdk.methods.agent.session.delete, { sessionId });
  await request.afterDelete?.();
}

/** `work` within `timeoutMs`, else a rejection saying so: a hung agent never holds a thread's delete. */
export async function withinDeleteTimeout<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the agent did not delete the session within ${timeoutMs} ms; gave up`)), timeoutMs);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
