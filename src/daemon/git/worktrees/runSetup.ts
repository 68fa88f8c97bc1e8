import { spawn } from 'node:child_process';
import type { SetupRun } from '../../../protocol/hostGitCommands';

/** Limits of a project's `setupScript` run (docs/worktrees.md "Setup script"). */
export const SETUP_LIMITS = {
  /** Output kept for the answer: the last this many characters (an error is at the end). */
  maxOutputChars: 64 * 1024,
  /** A script still running after this long is killed; its run answers exit code 124, as `timeout` does. */
  timeoutMs: 15 * 60 * 1000,
} as const;

/**
 * Runs the project's setup script in the new worktree through `sh -c`, with `ATS_WORKTREE_PATH` and
 * `ATS_SOURCE_TREE_PATH` (the checkout) set, and answers its exit code and output (stdout and stderr as one
 * stream, in order). Never throws for the script's own failure: the server reports it on the thread.
 */
export function runSetup(script: string, worktree: string, checkout: string, limits = SETUP_LIMITS): Promise<SetupRun> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', script], {
      cwd: worktree,
      env: { ...process.env, ATS_WORKTREE_PATH: worktree, ATS_SOURCE_TREE_PATH: checkout },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    let truncated = false;
    const take = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      if (output.length > limits.maxOutputChars) {
        output = output.slice(output.length - limits.maxOutputChars);
        truncated = true;
      }
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL'); // the script's whole process group
      } catch {
        // already gone
      }
    }, limits.timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      resolve({ exitCode: 127, output: error.message, truncated: false });
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      if (timedOut) output += `\n[setup script killed after ${limits.timeoutMs} ms]`;
      resolve({ exitCode: timedOut ? 124 : (code ?? 128), output, truncated });
    });
  });
}
