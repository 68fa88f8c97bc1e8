import { spawn } from 'node:child_process';

/** How a command that talks to a remote ended: its exit (null when killed) and its own words. */
export interface TimedOutput {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** True when it was still running at its timeout and was killed. */
  timedOut: boolean;
  /** True when the program is not on `PATH` (spawn's ENOENT). */
  missing: boolean;
}

/**
 * Never asks anyone anything: git and ssh take no password from a terminal, and `gh`/`glab` do not prompt.
 * A remote that wants credentials the host lacks fails at once with its own message instead of waiting.
 */
export const NO_PROMPT_ENV: Record<string, string> = {
  GIT_TERMINAL_PROMPT: '0',
  GIT_ASKPASS: 'true',
  SSH_ASKPASS: 'true',
  GIT_SSH_COMMAND: 'ssh -o BatchMode=yes',
  GH_PROMPT_DISABLED: '1',
  GH_NO_UPDATE_NOTIFIER: '1',
  GLAB_NO_PROMPT: '1',
  NO_COLOR: '1',
  LC_ALL: 'C',
};

/**
 * Runs a program that may wait on a network (a push, the forge CLI) with a deadline: at `timeoutMs` its whole
 * process group (git's ssh or https helper included) is killed, so a stuck remote costs the timeout, never a
 * hang. Resolves in every case; the caller reads the exit and the words.
 */
export function runTimed(
  program: string,
  args: readonly string[],
  options: { cwd: string; timeoutMs: number; env?: Record<string, string> | undefined; input?: string },
): Promise<TimedOutput> {
  return new Promise((resolve) => {
    const child = spawn(program, args, {
      cwd: options.cwd,
      env: { ...process.env, ...NO_PROMPT_ENV, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, options.timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    const finish = (exitCode: number | null, missing: boolean, extra = '') => {
      clearTimeout(timer);
      resolve({
        exitCode,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8') + extra,
        timedOut,
        missing,
      });
    };
    child.once('error', (error: NodeJS.ErrnoException) => finish(null, error.code === 'ENOENT', error.message));
    child.once('close', (code) => finish(code, false));
    child.stdin.on('error', () => {});
    child.stdin.end(options.input ?? '');
  });
}
