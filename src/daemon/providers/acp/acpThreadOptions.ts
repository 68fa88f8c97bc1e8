import type { AcpSdk } from './loadAcpSdk';

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
  emit(frame: unknown): void;
  log(message: string): void;
  /** Says a start failure in the service's terms: what to install, which variable to set. */
  explainStartFailure(error: unknown, stderr: string): Error;
}
