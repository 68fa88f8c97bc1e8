import { DEFAULT_PERMISSION_MODE } from '../../../protocol/approvals';
import type { AgentProvider, AgentThread, OpenThreadOptions } from '../agentProvider';
import { createApprovalGate } from './approvalGate';
import { deletePiSession } from './deletePiSession';
import { rewindPiSession } from './rewindPiSession';
import { forkPiSessionAt } from './forkPiSession';
import { explainPiError } from './explainPiError';
import { listPiModels } from './listPiModels';
import { guardAgentFailures } from './guardAgentFailures';
import { loadPiSdk } from './loadPiSdk';
import { parseModelRef } from './modelRef';
import { ensurePiOffline } from './offlineSafety';
import { openPiSession } from './openPiSession';
import { PI_PROVIDER_ID } from './piFrames';
import { startPiThread } from './piThread';

export interface PiProviderOptions {
  /**
   * pi's agent directory (`models.json`, `auth.json`, `settings.json`, global `extensions/`). Default: what pi
   * itself uses, `$PI_CODING_AGENT_DIR` or `~/.pi/agent`, so models and keys are configured exactly as for pi.
   */
  agentDir?: string;
  /** Let pi download `rg`/`fd` and settings packages when missing. Default false: pi runs with `PI_OFFLINE=1`. */
  allowDownloads?: boolean;
  /** Log unhandled rejections from agent code instead of letting Node end the daemon. Default true. */
  guardUnhandledRejections?: boolean;
  log?(message: string): void;
}

/**
 * The `pi` agent provider: one in-process pi session per thread, in the thread's environment folder, its
 * session file kept under the daemon's `dataDir` so the conversation continues after a restart.
 */
export function createPiProvider(options: PiProviderOptions = {}): AgentProvider {
  const log = options.log ?? ((message: string) => console.error(message));
  ensurePiOffline(process.env, options.allowDownloads ?? false);
  if (options.guardUnhandledRejections ?? true) guardAgentFailures(log);

  return {
    id: PI_PROVIDER_ID,
    listModels: () => listPiModels({ agentDir: options.agentDir }),
    deleteSession: deletePiSession,
    rewindSession: rewindPiSession,
    forkSession: forkPiSessionAt,
    async openThread(thread: OpenThreadOptions): Promise<AgentThread> {
      const sdk = await loadPiSdk();
      const agentDir = options.agentDir ?? sdk.getAgentDir();
      const { provider } = parseModelRef(thread.model);
      const explainError = (error: unknown) => explainPiError(error, { agentDir, provider });
      const approvals = createApprovalGate({ mode: thread.permissionMode ?? DEFAULT_PERMISSION_MODE, askUser: thread.askUser });
      const { session, extensionErrors } = await openPiSession(sdk, {
        cwd: thread.cwd,
        model: thread.model,
        permissionMode: thread.permissionMode,
        agentDir,
        sessionDir: thread.dataDir,
        resumeSessionId: thread.resumeProviderThreadId,
        extensionFactories: [approvals.extension],
      }).catch((error: unknown) => {
        throw explainError(error);
      });
      for (const failure of extensionErrors) log(`pi extension ${failure.path} not loaded for ${thread.threadId}: ${failure.error}`);
      try {
        return await startPiThread({
          session,
          threadId: thread.threadId,
          providerId: PI_PROVIDER_ID,
          emit: thread.emit,
          approvals,
          log,
          explainError,
        });
      } catch (error) {
        session.dispose();
        throw error;
      }
    },
  };
}
