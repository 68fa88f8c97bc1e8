import type { PermissionMode } from '../../../protocol/approvals';
import type { AskUser } from '../agentProvider';
import type { AcpSdk } from './loadAcpSdk';
import type { ReportedModel } from './openAcpSession';

/** What one thread's ACP agent is started with (acpThread.ts, startAgentSession.ts). */
export interface AcpThreadOptions {
  sdk: AcpSdk;
  /** The agent's name (`claude`, `codex`, …): the thread's provider. */
  name: string;
  executable: string;
  args: readonly string[];
  env: NodeJS.ProcessEnv;
  threadId: string;
  cwd: string;
  modelId?: string;
  resumeSessionId?: string;
  /** The thread's mode at open, mapped to the agent's own session mode (agentModes.ts). */
  permissionMode: PermissionMode;
  /** Where the agent's permission requests go; absent, each is refused. */
  askUser?: AskUser;
  emit(frame: unknown): void;
  /** How long a start (process, `initialize`, session) may take before it fails (OpenThreadOptions.startTimeoutMs). */
  startTimeoutMs?: number;
  /** How long a prompt may go on after its `session/cancel` before the agent is ended (OpenThreadOptions.stopGraceMs). */
  stopGraceMs: number;
  /** How long a thread's delete waits for the running agent's `session/delete`. */
  deleteTimeoutMs: number;
  /** Removes what the agent leaves of a deleted session (AcpAgentSpec.afterDelete). */
  afterDelete?: (sessionId: string) => Promise<void>;
  /**
   * The host removes the session's files itself after the agent closed (AcpAgentSpec.removeSessionFiles): a
   * delete does not ask the running agent.
   */
  hostRemovesSession?: boolean;
  /** `_meta` of the session's opening request, by the thread's mode (AcpAgentSpec.sessionMeta). */
  sessionMeta?: (mode: PermissionMode) => Record<string, unknown> | undefined;
  /** Runs before the agent loads an earlier session (AcpAgentSpec.beforeLoad). */
  beforeLoad?: (sessionId: string) => Promise<void>;
  /** The models the agent offered for the session just opened (its `model` config option or `models`), for the picker. */
  modelsReported?(models: ReportedModel[]): void;
  /** Whether the agent offers `session/fork`, as its `initialize` said (a fork then need not start one to ask). */
  forkOffered?(offered: boolean): void;
  log(message: string): void;
  /** Says a start failure in the service's terms: what to install, which variable to set. */
  explainStartFailure(error: unknown, stderr: string): Error;
}
