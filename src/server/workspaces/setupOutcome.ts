import type { SetupRun } from '../../protocol/hostGitCommands';
import type { ThreadRecord } from '../../registry/records';
import type { HostDirectory } from '../hosts/hostDirectory';
import { announceWorkspace } from './worktreeLifecycle';

/** The last part of a failed setup's output that its turn's error quotes (the whole output is in its row). */
export const SETUP_ERROR_TAIL_CHARS = 2_000;

/**
 * After a worktree is made: its setup script's run becomes a row of the thread (`thread/updated` with
 * `workspace.setup`: exit code and output), then the first prompt runs. A setup that failed is that prompt's
 * failed turn instead, with the exit code and the output's tail as its error (the prompt is not sent: the
 * agent would work in a half-prepared folder). The worktree stays ready, so the next prompt runs.
 */
export function runSetupThenPrompt(
  deps: { hosts: HostDirectory },
  made: { thread: ThreadRecord; setup: SetupRun | null },
  prompt: string | undefined,
  runPrompt: (thread: ThreadRecord, prompt: string) => void,
): void {
  const { thread, setup } = made;
  const promptNow = () => prompt && runPrompt(thread, prompt);
  if (setup === null) return void promptNow();
  void (async () => {
    await announceWorkspace(deps, thread, { state: 'ready', setup });
    if (setup.exitCode === 0) return void promptNow();
    if (prompt === undefined) return;
    for (const frame of setupFailureFrames(thread, setup, prompt)) await deps.hosts.call(thread.hostId, 'thread.ingest', { frame });
  })().catch(() => undefined);
}

/** The frames of a prompt that failed before any agent took it (the daemon's own agentFailureFrames shape). */
function setupFailureFrames(thread: ThreadRecord, setup: SetupRun, prompt: string): unknown[] {
  const tail = setup.output.slice(-SETUP_ERROR_TAIL_CHARS).trimEnd();
  const message = `the project's setup script failed (exit code ${setup.exitCode}) in the thread's new worktree${tail ? `:\n${tail}` : ''}`;
  return [
    { jsonrpc: '2.0', method: `${thread.provider}/prompt/started`, params: { threadId: thread.id, prompt } },
    { jsonrpc: '2.0', method: `${thread.provider}/prompt/settled`, params: { threadId: thread.id, error: { message } } },
  ];
}
