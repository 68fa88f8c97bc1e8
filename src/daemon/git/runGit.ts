import { spawn, type ChildProcess } from 'node:child_process';

/** Git's answer to one command: its stdout whole, its stderr for messages. */
export interface GitOutput {
  stdout: string;
  stderr: string;
}

export interface GitOptions {
  cwd: string;
  /** Added to the daemon's environment (e.g. `GIT_INDEX_FILE` for a temporary index); `undefined` unsets one. */
  env?: Record<string, string | undefined>;
  input?: string;
  /** Takes stdout as git writes it (the answer's `stdout` is then empty): for output read while git runs. */
  onStdout?: (chunk: Buffer) => void;
}

/** Git refused or failed: its exit code and own words, so a caller can say why. */
export class GitCommandFailed extends Error {
  constructor(
    readonly args: readonly string[],
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(`git ${args.join(' ')} failed (${exitCode}): ${stderr.trim() || 'no message'}`);
    this.name = 'GitCommandFailed';
  }
}

/**
 * Fixed for every call: no pager, no prompt for credentials, no colour and no user-configured external diff,
 * so the output parsed here is git's plain format whatever the user's config says. Identity is fixed so the
 * service's own commits (snapshots) never depend on a configured user.
 */
export const FIXED_ENV: Record<string, string> = {
  GIT_TERMINAL_PROMPT: '0',
  GIT_PAGER: 'cat',
  GIT_OPTIONAL_LOCKS: '0',
  GIT_AUTHOR_NAME: 'agent-thread-service',
  GIT_AUTHOR_EMAIL: 'ats@localhost',
  GIT_COMMITTER_NAME: 'agent-thread-service',
  GIT_COMMITTER_EMAIL: 'ats@localhost',
  LC_ALL: 'C',
};

/** Runs the real `git` CLI; resolves with its output, rejects with GitCommandFailed on a non-zero exit. */
export function runGit(args: readonly string[], options: GitOptions): Promise<GitOutput> {
  const child = spawn('git', ['-c', 'core.quotePath=false', ...args], {
    cwd: options.cwd,
    env: { ...process.env, ...FIXED_ENV, ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const output = gitOutputOf(child, args, options.onStdout);
  child.stdin.on('error', () => {}); // git may exit before reading its input; the exit code says why
  child.stdin.end(options.input ?? '');
  return output;
}

/**
 * What a git process (`args`, named in failures) answers once it closed: its output, or GitCommandFailed
 * on a non-zero exit. With `onStdout`, stdout goes there as git writes it; a reader that throws ends git and
 * is the answer (it runs in an event handler, where a throw would be the daemon's uncaught exception).
 */
export function gitOutputOf(child: ChildProcess, args: readonly string[], onStdout?: (chunk: Buffer) => void): Promise<GitOutput> {
  return new Promise((resolve, reject) => {
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let readerFailed: unknown;
    const takeStdout = onStdout
      ? (chunk: Buffer) => {
          if (readerFailed !== undefined) return;
          try {
            onStdout(chunk);
          } catch (error) {
            readerFailed = error;
            child.kill('SIGKILL');
          }
        }
      : (chunk: Buffer) => out.push(chunk);
    child.stdout!.on('data', takeStdout);
    child.stderr!.on('data', (chunk: Buffer) => err.push(chunk));
    child.once('error', (error) => reject(new GitCommandFailed(args, null, error.message)));
    child.once('close', (code) => {
      const stdout = Buffer.concat(out).toString('utf8');
      const stderr = Buffer.concat(err).toString('utf8');
      if (readerFailed !== undefined) reject(readerFailed);
      else if (code === 0) resolve({ stdout, stderr });
      else reject(new GitCommandFailed(args, code, stderr));
    });
  });
}

/** True when git exits 0 (a question like `show-ref --verify`), false on any refusal. */
export async function gitSucceeds(args: readonly string[], options: GitOptions): Promise<boolean> {
  try {
    await runGit(args, options);
    return true;
  } catch (error) {
    if (error instanceof GitCommandFailed) return false;
    throw error;
  }
}
