import type { AcpSdk } from './loadAcpSdk';
import { spawnAcpAgent, type AcpAgentProcess } from './spawnAcpAgent';

export interface BriefAgentOptions {
  sdk: AcpSdk;
  executable: string;
  args: readonly string[];
  /** The environment a thread's agent gets: the agent finds its home (HOME, CODEX_HOME) there. */
  env: NodeJS.ProcessEnv;
  cwd: string;
  timeoutMs: number;
  /** What the agent was started for, said when it took too long: `delete the session`. */
  what: string;
}

/**
 * Runs `work` on an ACP agent started for it alone, not for a thread (a delete or a fork of a session whose
 * agent is not running): spawned as a thread's agent would be, refused every permission question (nothing it
 * runs is a tool call of the user's), closed with its whole process group once `work` settled or after
 * `timeoutMs`, whatever happened. A failure says what the agent last wrote to stderr.
 */
export async function withBriefAgent<T>(options: BriefAgentOptions, work: (agent: AcpAgentProcess) => Promise<T>): Promise<T> {
  const agent = spawnAcpAgent({
    sdk: options.sdk,
    executable: options.executable,
    args: options.args,
    cwd: options.cwd,
    env: options.env,
    update: () => undefined,
    promptAnswered: () => undefined,
    requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }),
  });
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`the agent did not ${options.what} within ${options.timeoutMs} ms; gave up`)),
      options.timeoutMs,
    );
  });
  try {
    return await Promise.race([work(agent), late]);
  } catch (error) {
    const stderr = agent.stderrTail().split('\n').at(-1);
    throw new Error(`${error instanceof Error ? error.message : String(error)}${stderr ? ` (the agent said: ${stderr})` : ''}`);
  } finally {
    clearTimeout(timer);
    await agent.close(1_000);
  }
}
